package dev.sluice.limits.internal;

import dev.sluice.limits.NanoClock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The token bucket of Go's {@code x/time/rate}, lock-free: every operation reads one immutable {@link BucketState},
 * computes the next one exactly as Go computes it under its mutex, and installs it with a compare-and-set,
 * starting over from the new snapshot if another thread got there first. Operations therefore take effect in one
 * order, each on the result of the one before, which is all Go's lock guarantees; results match Go's bit for bit.
 *
 * <p>A refusal (not enough tokens, {@code n > burst}, a wait beyond the caller's maximum) reads and writes nothing:
 * it costs one volatile read and leaves the bucket as it was. An infinite limit never writes either.
 *
 * <p>A thread that loses the compare-and-set backs off exponentially before it tries again (see {@link #MAX_SPINS}).
 * Racing threads that retry at once keep passing the state's cache lines between their cores and collapse to a
 * fraction of the throughput of one thread; backing off lets the winner run on while the line stays in its cache,
 * and gives the loser a quiet window to win. A call that does not race never pauses.
 *
 * <p>A bucket owned by a keyed limiter can be <em>retired</em> when it is full (see {@link #retireIfFull}); every
 * operation on a retired bucket reports {@link #RETIRED} or {@code null} and changes nothing, so its owner looks the
 * key up again and gets a fresh bucket, which behaves exactly as the full one would have.
 *
 * <p>Not part of the API. Thread-safe. Instants and durations are nanoseconds; the caller supplies {@code now}.
 */
public final class TokenBucket implements BucketSource {

    /** {@link #allowN} took the tokens. */
    public static final int ALLOWED = 1;
    /** {@link #allowN} refused: the bucket is unchanged. */
    public static final int DENIED = 0;
    /** The bucket was retired by its owner: nothing was done, look the key up again. */
    public static final int RETIRED = -1;

    /**
     * The most {@link Thread#onSpinWait()} pauses after one lost compare-and-set (some 50 µs where a pause takes
     * 25 ns). Each loss doubles the pause, starting from one.
     */
    static final int MAX_SPINS = 1 << 11;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TokenBucket.class, "state", BucketState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The state of every retired bucket. Its fields are never read as a bucket's. */
    private static final BucketState RETIRED_STATE = BucketState.initial(new BucketConfig(0, 0));

    private volatile BucketState state;

    /**
     * A full bucket of {@code burst} tokens refilled at {@code limit} tokens per second.
     *
     * @throws IllegalArgumentException if {@code limit} is negative or NaN, or {@code burst < 0}
     */
    public TokenBucket(double limit, int burst) {
        this(new BucketConfig(RateMath.checkLimit(limit), RateMath.checkBurst(burst)));
    }

    /** A full bucket with the settings {@code config}, which may be shared with other buckets. */
    TokenBucket(BucketConfig config) {
        this.state = BucketState.initial(config);
    }

    /** This bucket itself, unless it is retired (only a keyed limiter retires its buckets, and looks up anew). */
    @Override
    public TokenBucket bucketAt(long now) {
        return retired() ? null : this;
    }

    @Override
    public String refusal() {
        return "bucket retired";
    }

    /** The current rate in tokens per second: {@link RateMath#INF} for none. */
    public double limit() {
        return state.config.limit;
    }

    /** The current burst. */
    public int burst() {
        return state.config.burst;
    }

    /** Whether {@link #retireIfFull} retired this bucket. */
    public boolean retired() {
        return state == RETIRED_STATE;
    }

    /**
     * The tokens available at {@code now}; negative while reservations are outstanding. Changes nothing. NaN once
     * the bucket is retired: its owner's fresh replacement holds the burst.
     */
    public double tokensAt(long now) {
        BucketState s = state;
        return s == RETIRED_STATE ? Double.NaN : s.advance(now);
    }

    /**
     * Takes {@code n} tokens at {@code now} if they are there: Go's {@code AllowN}, that is a reservation that may
     * not wait at all. The tokens may also be "there" when the bucket lacks a sliver that accumulates in under a
     * nanosecond, since Go truncates that wait to 0.
     *
     * @return {@link #ALLOWED}, {@link #DENIED} or {@link #RETIRED}
     */
    public int allowN(long now, int n) {
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE) {
                return RETIRED;
            }
            BucketConfig c = s.config;
            if (c.limit == RateMath.INF) {
                return ALLOWED;
            }
            double tokens = s.advance(now) - n;
            if (n > c.burst || tokens < 0 && RateMath.durationFromTokens(c.limit, -tokens) > 0) {
                return DENIED;
            }
            // Go stores lastEvent = timeToAct = now + 0.
            BucketState next = BucketState.after(c, tokens, now);
            if (STATE.compareAndSet(this, s, next)) {
                return ALLOWED;
            }
        }
    }

    /**
     * Reserves {@code n} tokens at {@code now}, to be used once they have accumulated, provided that happens within
     * {@code maxWait} nanoseconds: Go's {@code reserveN}. Past reservations push later ones further out, so the
     * tokens may go negative. A reservation that is not OK ({@code n > burst}, or the wait exceeds
     * {@code maxWait}) leaves the bucket untouched.
     *
     * @param maxWait the longest acceptable wait in nanoseconds; {@link RateMath#INF_DURATION} for any
     * @param clock the clock the reservation's convenience methods read
     * @return the reservation, or {@code null} if the bucket is retired
     */
    public RealReservation reserveN(long now, int n, long maxWait, NanoClock clock) {
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE) {
                return null;
            }
            BucketConfig c = s.config;
            if (c.limit == RateMath.INF) {
                // Go leaves the state alone and the reservation's limit at 0, which decides what a cancel restores.
                return new RealReservation(this, clock, n, 0, WideTime.hi(now), now);
            }
            double tokens = s.advance(now) - n;
            long wait = tokens < 0 ? RateMath.durationFromTokens(c.limit, -tokens) : 0;
            if (n > c.burst || wait > maxWait) {
                return RealReservation.NOT_OK;
            }
            long actHi = WideTime.addHi(WideTime.hi(now), now, wait);
            long actLo = WideTime.addLo(now, wait);
            BucketState next = BucketState.after(c, tokens, now, actHi, actLo);
            if (STATE.compareAndSet(this, s, next)) {
                return new RealReservation(this, clock, n, c.limit, actHi, actLo);
            }
        }
    }

    /**
     * Gives back, at {@code now}, the tokens of {@code r} that later reservations did not come to depend on: Go's
     * {@code CancelAt}. Nothing happens if {@code r} is not OK, took no tokens, acted before {@code now}, the limit
     * is now infinite, or the bucket is retired (it was full, so its replacement already holds every token).
     */
    void cancelAt(RealReservation r, long now) {
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE || s.config.limit == RateMath.INF || r.tokens == 0
                    || WideTime.compare(r.actHi, r.actLo, WideTime.hi(now), now) < 0) {
                return;
            }
            // Tokens reserved after r are counted by how far the latest event lies beyond r's: those stay taken.
            long sinceR = WideTime.sub(s.eventHi(), s.eventLo(), r.actHi, r.actLo);
            double restore = r.tokens - RateMath.tokensFromDuration(r.limit, sinceR);
            if (restore <= 0) {
                return;
            }
            double tokens = s.advance(now) + restore;
            if (tokens > s.config.burst) {
                tokens = s.config.burst;
            }
            long eventHi = s.eventHi();
            long eventLo = s.eventLo();
            if (r.actHi == eventHi && r.actLo == eventLo) {
                // r was the latest: the latest event becomes the one before it, unless that lies in the past.
                long back = RateMath.durationFromTokens(r.limit, -r.tokens);
                long prevHi = WideTime.addHi(r.actHi, r.actLo, back);
                long prevLo = WideTime.addLo(r.actLo, back);
                if (WideTime.compare(prevHi, prevLo, WideTime.hi(now), now) >= 0) {
                    eventHi = prevHi;
                    eventLo = prevLo;
                }
            }
            BucketState next = BucketState.after(s.config, tokens, now, eventHi, eventLo);
            if (STATE.compareAndSet(this, s, next)) {
                return;
            }
        }
    }

    /**
     * Sets the rate at {@code now}: tokens accumulated so far are kept at the old rate, later ones at the new.
     * Reservations already made keep their instants. Ignored on a retired bucket.
     *
     * @throws IllegalArgumentException if {@code limit} is negative or NaN
     */
    public void setLimitAt(long now, double limit) {
        double checked = RateMath.checkLimit(limit);
        BucketConfig c = null;
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE) {
                return;
            }
            if (c == null || c.burst != s.config.burst) {
                c = new BucketConfig(checked, s.config.burst);
            }
            BucketState next = BucketState.after(c, s.advance(now), now, s.eventHi(), s.eventLo());
            if (STATE.compareAndSet(this, s, next)) {
                return;
            }
        }
    }

    /**
     * Sets the burst at {@code now}. The tokens are kept as they are, even above a smaller burst: the next read
     * caps them. Ignored on a retired bucket.
     *
     * @throws IllegalArgumentException if {@code burst < 0}
     */
    public void setBurstAt(long now, int burst) {
        int checked = RateMath.checkBurst(burst);
        BucketConfig c = null;
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE) {
                return;
            }
            if (c == null || c.limit != s.config.limit) {
                c = new BucketConfig(s.config.limit, checked);
            }
            BucketState next = BucketState.after(c, s.advance(now), now, s.eventHi(), s.eventLo());
            if (STATE.compareAndSet(this, s, next)) {
                return;
            }
        }
    }

    /**
     * Retires this bucket if it is full at {@code now}: a full bucket behaves from {@code now} on exactly as a new
     * one, so its owner may forget it and lose nothing. Operations racing with the retirement either happen
     * before it (and then the bucket is no longer full, and stays) or see the bucket retired.
     *
     * @return whether the bucket is retired now
     */
    public boolean retireIfFull(long now) {
        for (int spins = 1;; spins = backOff(spins)) {
            BucketState s = state;
            if (s == RETIRED_STATE) {
                return true;
            }
            if (s.advance(now) < s.config.burst) {
                return false;
            }
            if (STATE.compareAndSet(this, s, RETIRED_STATE)) {
                return true;
            }
        }
    }

    /** Pauses {@code spins} times after a lost compare-and-set; returns the pause count for the next loss. */
    private static int backOff(int spins) {
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
        return spins < MAX_SPINS ? spins << 1 : MAX_SPINS;
    }
}
