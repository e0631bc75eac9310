package dev.sluice.limits;

import dev.sluice.limits.internal.RateMath;
import dev.sluice.limits.internal.TokenBucket;
import dev.sluice.limits.internal.WaitMono;
import java.time.Duration;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A rate limiter controls how often events may happen: a token bucket of size {@code burst}, initially full and
 * refilled at {@code limit} tokens per second. Informally, over any long enough interval it limits events to
 * {@code limit} per second, with bursts of at most {@code burst}. The semantics are those of Go's
 * {@code golang.org/x/time/rate} {@code Limiter} (v0.16.0), to the bit: the same arithmetic, the same edge cases,
 * checked against Go itself.
 *
 * <p>Three ways to ask, each taking {@code n} tokens (1 for the short forms):
 * <ul>
 * <li>{@link #allowN} says whether the tokens are there now, and takes them if so. Use it to drop or refuse what
 *     exceeds the rate.
 * <li>{@link #reserveN} promises the tokens for later and says how long to wait ({@link Reservation#delay()}); the
 *     caller waits, then acts, or cancels. Use it to slow down without dropping anything.
 * <li>{@link #waitN(int, Duration)} (a timeout) and {@link #waitNUntil(int, long)} (a deadline, an instant on the
 *     clock) return a {@code Mono<Void>} that completes when the caller may act, or fails at once with
 *     {@link RateLimitedException} when that would be after the caller's deadline, leaving the limiter untouched.
 *     Most callers under a deadline want this one: a request that cannot be served in time fails in microseconds
 *     instead of timing out.
 * </ul>
 *
 * <p>Every operation has a form that takes the time, {@code nowNanos}, and a short form that reads the limiter's
 * {@link NanoClock}; waits and delays come as {@link Duration}s too. Names say which {@code long} is which: a
 * {@code nowNanos} or a {@code deadlineNanos} (the {@code ...Until} forms) is an instant, a {@code maxWaitNanos}
 * a duration. Times are nanoseconds on that clock (by default {@link System#nanoTime()}); only their
 * differences matter. Time going backwards accumulates no tokens; an operation at an earlier time than the last
 * one is computed at that time and moves the limiter's notion of "last" back, as Go's does.
 *
 * <p>Edge values:
 * <ul>
 * <li>{@link #INF} ({@code Double.MAX_VALUE}; {@code Double.POSITIVE_INFINITY} is read as it) allows everything,
 *     whatever the burst, even 0, and leaves the bucket untouched, so a later finite limit finds it as it was.
 * <li>A limit of 0 allows the initial burst and then nothing: {@link #allowN} is false, and a reservation is OK
 *     but its delay is {@link #INF_DURATION} (and it takes the tokens, driving the bucket negative).
 * <li>A burst of 0 allows nothing unless the limit is {@link #INF}; {@code n = 0} is always allowed while the
 *     bucket is not negative, and {@code n > burst} never is.
 * <li>{@code n < 0}, a negative or NaN limit, and a negative burst are rejected with
 *     {@link IllegalArgumentException} (Go accepts {@code n < 0} and overfills the bucket).
 * <li>{@link #setLimitAt} and {@link #setBurstAt} keep the tokens accumulated so far; reservations already made
 *     keep their times and may violate or underuse the new setting.
 * </ul>
 *
 * <p>Thread-safe and lock-free: an operation that takes tokens installs a new immutable state with one
 * compare-and-set; a refusal only reads. Operations take effect in a single order, as under Go's mutex. A thread
 * that loses a race backs off for a moment (spinning, never blocking) before it tries again, which keeps a limiter
 * hammered by many threads at the throughput of one instead of collapsing.
 */
public final class RateLimiter {

    /** The infinite rate: allows every event, even with a burst of 0. Equal to {@code Double.MAX_VALUE}. */
    public static final double INF = RateMath.INF;

    /** The delay of a reservation that is not OK, or whose tokens never come: {@code Long.MAX_VALUE} ns. */
    public static final long INF_DURATION = RateMath.INF_DURATION;

    private final TokenBucket bucket;
    private final NanoClock clock;
    private final Scheduler scheduler;

    private RateLimiter(Builder builder) {
        this.bucket = new TokenBucket(builder.limit, builder.burst);
        this.clock = builder.clock;
        this.scheduler = builder.scheduler;
    }

    /**
     * A limiter of {@code perSecond} tokens per second and bursts of {@code burst}, starting full, on
     * {@link NanoClock#SYSTEM} with waits timed on {@link Schedulers#parallel()}.
     *
     * @throws IllegalArgumentException if {@code perSecond} is negative or NaN, or {@code burst < 0}
     */
    public static RateLimiter create(double perSecond, int burst) {
        return builder(perSecond, burst).build();
    }

    /** A builder of a limiter of {@code perSecond} tokens per second and bursts of {@code burst}. */
    public static Builder builder(double perSecond, int burst) {
        return new Builder(perSecond, burst);
    }

    /**
     * The rate of one event every {@code interval}, as Go's {@code Every}: {@link #INF} if the interval is 0 or
     * negative.
     */
    public static double every(Duration interval) {
        return RateMath.every(toNanos(interval));
    }

    /** The rate of one event every {@code intervalNanos}; {@link #INF} if it is 0 or negative. */
    public static double every(long intervalNanos) {
        return RateMath.every(intervalNanos);
    }

    /** The rate in tokens per second; {@link #INF} for none. */
    public double limit() {
        return bucket.limit();
    }

    /** The burst: the bucket's size, the most tokens a single call may take (unless the limit is infinite). */
    public int burst() {
        return bucket.burst();
    }

    /** The clock the short forms read. */
    public NanoClock clock() {
        return clock;
    }

    /** The tokens available at {@code nowNanos}; negative while reservations are outstanding. Changes nothing. */
    public double tokensAt(long nowNanos) {
        return bucket.tokensAt(nowNanos);
    }

    /** {@link #tokensAt} the clock's time. */
    public double tokens() {
        return bucket.tokensAt(clock.nanoTime());
    }

    /** {@link #allowN(long, int)} one token at the clock's time. */
    public boolean allow() {
        return bucket.allowN(clock.nanoTime(), 1) == TokenBucket.ALLOWED;
    }

    /** {@link #allowN(long, int)} at the clock's time. */
    public boolean allowN(int n) {
        return allowN(clock.nanoTime(), n);
    }

    /**
     * Takes {@code n} tokens at {@code nowNanos} if they are there, and says whether it did. A refusal changes
     * nothing. Use it to drop or refuse events beyond the rate; otherwise use {@link #reserveN} or {@link #waitN}.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public boolean allowN(long nowNanos, int n) {
        return bucket.allowN(nowNanos, RateMath.checkN(n)) == TokenBucket.ALLOWED;
    }

    /** {@link #reserveN(long, int)} one token at the clock's time. */
    public Reservation reserve() {
        return reserveN(clock.nanoTime(), 1);
    }

    /** {@link #reserveN(long, int)} at the clock's time. */
    public Reservation reserveN(int n) {
        return reserveN(clock.nanoTime(), n);
    }

    /**
     * Reserves {@code n} tokens at {@code nowNanos} however long they take to come: the reservation says how long
     * to wait before acting, and later callers wait behind it. It is not OK only if {@code n > burst} (with a
     * finite limit); then nothing changed. To act, wait {@link Reservation#delayFrom}; not to act, cancel it.
     *
     * @param nowNanos the time of the reservation, on the limiter's clock
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Reservation reserveN(long nowNanos, int n) {
        return reserveN(nowNanos, n, INF_DURATION);
    }

    /**
     * {@link #reserveN(long, int, long)} at the clock's time, if the tokens come within {@code maxWait}.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Reservation reserveN(int n, Duration maxWait) {
        return reserveN(clock.nanoTime(), n, toNanos(maxWait));
    }

    /**
     * Reserves {@code n} tokens at {@code nowNanos} if they come within {@code maxWaitNanos}: what {@link #waitN}
     * does before it waits. A reservation that is not OK ({@code n > burst}, or the wait would be longer) changed
     * nothing. With {@code maxWaitNanos = 0} this is {@link #allowN} with a reservation to cancel.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Reservation reserveN(long nowNanos, int n, long maxWaitNanos) {
        return bucket.reserveN(nowNanos, RateMath.checkN(n), maxWaitNanos, clock);
    }

    /** {@link #waitNUntil(long, int, long)} with no deadline, reserving at the clock's time of subscription. */
    public Mono<Void> waitN(int n) {
        return wait(n, false, 0, WaitMono.NO_DEADLINE, 0);
    }

    /**
     * Waits until {@code n} tokens may be used, for at most {@code timeout} from the clock's time of subscription:
     * {@link #waitNUntil(long, int, long)} with the deadline {@code timeout} after that time. A zero
     * {@code timeout} takes only tokens that are there at once; a negative one fails at once.
     */
    public Mono<Void> waitN(int n, Duration timeout) {
        return wait(n, false, 0, WaitMono.RELATIVE, toNanos(timeout));
    }

    /**
     * {@link #waitNUntil(long, int, long)} reserving at the clock's time of subscription.
     *
     * @param deadlineNanos an instant on the limiter's clock (not a timeout: for one, use
     *     {@link #waitN(int, Duration)})
     */
    public Mono<Void> waitNUntil(int n, long deadlineNanos) {
        return wait(n, false, 0, WaitMono.ABSOLUTE, deadlineNanos);
    }

    /**
     * Waits until {@code n} tokens may be used, reserving them at {@code nowNanos} when subscribed: completes after
     * the reservation's delay (timed on the limiter's scheduler; at once if there is none), and fails at once with
     * {@link RateLimitedException}, leaving the limiter untouched, if {@code n > burst} (with a finite limit), if
     * {@code deadlineNanos} is before {@code nowNanos}, or if the tokens would come after {@code deadlineNanos}.
     * Cancelling the subscription before it completes gives the tokens back ({@link Reservation#cancel()} at the
     * clock's time). A deadline equal to {@code nowNanos} takes only tokens that are there (Go's context would
     * already be done and fail).
     *
     * @param nowNanos the time of the reservation, on the limiter's clock
     * @param deadlineNanos an instant on the limiter's clock, not a timeout
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Void> waitNUntil(long nowNanos, int n, long deadlineNanos) {
        return wait(n, true, nowNanos, WaitMono.ABSOLUTE, deadlineNanos);
    }

    private Mono<Void> wait(int n, boolean fixedNow, long nowNanos, int deadlineKind, long deadline) {
        return WaitMono.create(bucket, clock, scheduler, n, fixedNow, nowNanos, deadlineKind, deadline);
    }

    /** {@link #setLimitAt} the clock's time. */
    public void setLimit(double perSecond) {
        bucket.setLimitAt(clock.nanoTime(), perSecond);
    }

    /**
     * Changes the rate at {@code nowNanos}: tokens accumulated until then count at the old rate. Reservations
     * already made keep their times, so they may violate or underuse the new rate for a while.
     *
     * @throws IllegalArgumentException if {@code perSecond} is negative or NaN
     */
    public void setLimitAt(long nowNanos, double perSecond) {
        bucket.setLimitAt(nowNanos, perSecond);
    }

    /** {@link #setBurstAt} the clock's time. */
    public void setBurst(int burst) {
        bucket.setBurstAt(clock.nanoTime(), burst);
    }

    /**
     * Changes the burst at {@code nowNanos}. The tokens are kept; above a smaller burst they are capped when next
     * read.
     *
     * @throws IllegalArgumentException if {@code burst < 0}
     */
    public void setBurstAt(long nowNanos, int burst) {
        bucket.setBurstAt(nowNanos, burst);
    }

    @Override
    public String toString() {
        return "RateLimiter[limit=" + limit() + "/s, burst=" + burst() + "]";
    }

    static long toNanos(Duration d) {
        Objects.requireNonNull(d, "duration");
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** Settings of a {@link RateLimiter}: its rate and burst, the clock it reads and the scheduler it waits on. */
    public static final class Builder {

        private final double limit;
        private final int burst;
        private NanoClock clock = NanoClock.SYSTEM;
        private Scheduler scheduler = Schedulers.parallel();

        private Builder(double perSecond, int burst) {
            this.limit = RateMath.checkLimit(perSecond);
            this.burst = RateMath.checkBurst(burst);
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

        public RateLimiter build() {
            return new RateLimiter(this);
        }
    }
}
