package dev.sluice.limits;

import dev.sluice.limits.internal.BucketSource;
import dev.sluice.limits.internal.BucketTable;
import dev.sluice.limits.internal.RateMath;
import dev.sluice.limits.internal.RealReservation;
import dev.sluice.limits.internal.TokenBucket;
import dev.sluice.limits.internal.WaitMono;
import java.time.Duration;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A rate limiter per key (a client's address, a metadata value): each key has its own token bucket of the same
 * rate and burst, with exactly the semantics of {@link RateLimiter}, and no key can use another's tokens.
 *
 * <p>Memory is bounded. A key's bucket is forgotten once it is full again, because a full bucket behaves exactly as
 * the fresh one the key gets on its next request: eviction changes no decision. Eviction is incremental (a few
 * buckets are inspected for each new key) and can be run in full with {@link #evictIdle}. At most
 * {@link Builder#maxKeys maxKeys} buckets exist at once. <b>When the table is full</b> and no bucket can be
 * evicted, a request with a new key is refused: {@code allowN} is false, a reservation is not OK, and a wait
 * fails with {@link RateLimitedException} ("key table full: maxKeys=..."), until some bucket has refilled (at most
 * {@code burst / limit} seconds after its last use). Keys already known are served as usual. Evicting a bucket
 * that is not full instead would give its key a fresh burst, so that a client cycling through new keys could
 * multiply everyone else's rate; refusing the newcomer never lets any key exceed its limit. Size {@code maxKeys}
 * for the keys active within one refill time. (With a zero limit a used bucket never refills and is never
 * evicted; with {@link RateLimiter#INF} buckets are always full and cost nothing.)
 *
 * <p>Every operation has a form that takes the time, {@code nowNanos}, and a short form that reads the clock.
 * Eviction assumes that time does not go backwards: a key asked about at an earlier time than its eviction gets
 * a full bucket where its evicted one might have had fewer tokens.
 *
 * <p>Thread-safe and lock-free on the path of a known key. Keys must implement {@code equals} and
 * {@code hashCode} and must not be null.
 *
 * @param <K> the key type
 */
public final class KeyedRateLimiter<K> {

    private final BucketTable<K> table;
    private final NanoClock clock;
    private final Scheduler scheduler;
    private final String refusal;

    private KeyedRateLimiter(Builder builder) {
        this.table = new BucketTable<>(builder.limit, builder.burst, builder.maxKeys);
        this.clock = builder.clock;
        this.scheduler = builder.scheduler;
        this.refusal = "key table full: maxKeys=" + builder.maxKeys;
    }

    /** A builder of a keyed limiter of {@code perSecond} tokens per second and bursts of {@code burst} per key. */
    public static Builder builder(double perSecond, int burst) {
        return new Builder(perSecond, burst);
    }

    /** The rate of every key's bucket, in tokens per second. */
    public double limit() {
        return table.limit();
    }

    /** The burst of every key's bucket. */
    public int burst() {
        return table.burst();
    }

    /** The most buckets held at once. */
    public int maxKeys() {
        return table.maxKeys();
    }

    /** The buckets held now; never more than {@link #maxKeys()}. */
    public int size() {
        return table.size();
    }

    /** The clock the short forms read. */
    public NanoClock clock() {
        return clock;
    }

    /** The tokens of {@code key} at {@code nowNanos} (the burst for a key without a bucket). Changes nothing. */
    public double tokensAt(K key, long nowNanos) {
        Objects.requireNonNull(key, "key");
        // Bounded: a retired bucket is unlinked before the next read.
        for (;;) {
            TokenBucket bucket = table.peek(key);
            if (bucket == null) {
                return table.burst();
            }
            double tokens = bucket.tokensAt(nowNanos);
            if (!bucket.retired()) {
                return tokens;
            }
            table.unlink(key, bucket);
        }
    }

    /** {@link #allowN(Object, long, int)} one token at the clock's time. */
    public boolean allow(K key) {
        return allowN(key, clock.nanoTime(), 1);
    }

    /**
     * Takes {@code n} tokens of {@code key} at {@code nowNanos} if they are there, as {@link RateLimiter#allowN};
     * false also when {@code key} is new and the table is full.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public boolean allowN(K key, long nowNanos, int n) {
        Objects.requireNonNull(key, "key");
        RateMath.checkN(n);
        for (;;) {
            TokenBucket bucket = table.bucketAt(key, nowNanos);
            if (bucket == null) {
                return false;
            }
            int result = bucket.allowN(nowNanos, n);
            if (result != TokenBucket.RETIRED) {
                return result == TokenBucket.ALLOWED;
            }
        }
    }

    /** {@link #reserveN(Object, long, int, long)} one token at the clock's time, however long it takes. */
    public Reservation reserve(K key) {
        return reserveN(key, clock.nanoTime(), 1, RateLimiter.INF_DURATION);
    }

    /**
     * Reserves {@code n} tokens of {@code key} at {@code nowNanos} if they come within {@code maxWaitNanos}, as
     * {@link RateLimiter#reserveN(long, int, long)}; not OK also when {@code key} is new and the table is full.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Reservation reserveN(K key, long nowNanos, int n, long maxWaitNanos) {
        Objects.requireNonNull(key, "key");
        RateMath.checkN(n);
        for (;;) {
            TokenBucket bucket = table.bucketAt(key, nowNanos);
            if (bucket == null) {
                return RealReservation.NOT_OK;
            }
            RealReservation r = bucket.reserveN(nowNanos, n, maxWaitNanos, clock);
            if (r != null) {
                return r;
            }
        }
    }

    /**
     * {@link #reserveN(Object, long, int, long)} at the clock's time, if the tokens come within {@code maxWait}.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Reservation reserveN(K key, int n, Duration maxWait) {
        return reserveN(key, clock.nanoTime(), n, RateLimiter.toNanos(maxWait));
    }

    /**
     * Waits for {@code n} tokens of {@code key}, as {@link RateLimiter#waitN(int, Duration)}: completes when they
     * may be used, or fails at once with {@link RateLimitedException} if that would take longer than
     * {@code timeout}, if {@code n > burst}, or if {@code key} is new and the table is full.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Void> waitN(K key, int n, Duration timeout) {
        return WaitMono.create(source(key), clock, scheduler, n, false, 0, WaitMono.RELATIVE,
                RateLimiter.toNanos(timeout));
    }

    /**
     * Waits for {@code n} tokens of {@code key}, reserving them at {@code nowNanos}, until the instant
     * {@code deadlineNanos}, as {@link RateLimiter#waitNUntil(long, int, long)}; fails also if {@code key} is new
     * and the table is full.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Void> waitNUntil(K key, long nowNanos, int n, long deadlineNanos) {
        return WaitMono.create(source(key), clock, scheduler, n, true, nowNanos, WaitMono.ABSOLUTE, deadlineNanos);
    }

    /** Evicts every bucket that is full at {@code nowNanos} and returns how many; see the class doc. */
    public int evictIdle(long nowNanos) {
        return table.evictIdle(nowNanos);
    }

    /** {@link #evictIdle(long)} at the clock's time. */
    public int evictIdle() {
        return table.evictIdle(clock.nanoTime());
    }

    @Override
    public String toString() {
        return "KeyedRateLimiter[limit=" + limit() + "/s, burst=" + burst() + ", keys=" + size() + "/" + maxKeys()
                + "]";
    }

    private BucketSource source(K key) {
        Objects.requireNonNull(key, "key");
        return new BucketSource() {
            @Override
            public TokenBucket bucketAt(long now) {
                return table.bucketAt(key, now);
            }

            @Override
            public String refusal() {
                return refusal;
            }
        };
    }

    /** Settings of a {@link KeyedRateLimiter}. */
    public static final class Builder {

        /** The default {@link #maxKeys}: 100,000 buckets, about 100 bytes each plus the key. */
        public static final int DEFAULT_MAX_KEYS = 100_000;

        private final double limit;
        private final int burst;
        private int maxKeys = DEFAULT_MAX_KEYS;
        private NanoClock clock = NanoClock.SYSTEM;
        private Scheduler scheduler = Schedulers.parallel();

        private Builder(double perSecond, int burst) {
            this.limit = RateMath.checkLimit(perSecond);
            this.burst = RateMath.checkBurst(burst);
        }

        /**
         * The most buckets held at once; {@link #DEFAULT_MAX_KEYS} by default. See the class doc for what happens
         * when they are all in use.
         *
         * @throws IllegalArgumentException if {@code maxKeys < 1}
         */
        public Builder maxKeys(int maxKeys) {
            if (maxKeys < 1) {
                throw new IllegalArgumentException("maxKeys < 1: " + maxKeys);
            }
            this.maxKeys = maxKeys;
            return this;
        }

        /** The clock of the short forms and of cancels; {@link NanoClock#SYSTEM} by default. */
        public Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The scheduler that times waits; {@link Schedulers#parallel()} by default. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** A keyed limiter with these settings, for keys of type {@code K}. */
        public <K> KeyedRateLimiter<K> build() {
            return new KeyedRateLimiter<>(this);
        }
    }
}
