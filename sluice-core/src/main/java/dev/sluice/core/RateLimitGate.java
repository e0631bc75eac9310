package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedException;

import dev.sluice.limits.KeyedRateLimiter;
import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.Reservation;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link RequestGate} that applies a token-bucket {@link RateLimiter} (one for all requests) or a
 * {@link KeyedRateLimiter} (one bucket per key: the client's address, a metadata value) to incoming requests.
 *
 * <p>With no maximum wait, a request without a token is refused at once with ERROR[REJECTED] {@code rate_limited}.
 * With a maximum wait, it takes a reservation: if the token comes within the wait, the request proceeds after
 * that delay; if the reservation says it cannot make it, the request is refused at once — in microseconds, not
 * after a timeout — and the limiter is left as it was.
 *
 * <p>Thread-safe (the limiters are).
 */
public final class RateLimitGate implements RequestGate {

    /** The ERROR[REJECTED] message of a request refused by the rate limit. */
    public static final String RATE_LIMITED = "rate_limited";

    private final Function<Payload, Reservation> reserve;
    private final long maxWaitNanos;
    private final Scheduler timer;

    private RateLimitGate(Function<Payload, Reservation> reserve, long maxWaitNanos, Scheduler timer) {
        this.reserve = reserve;
        this.maxWaitNanos = maxWaitNanos;
        this.timer = timer;
    }

    /**
     * Every request of every connection shares {@code limiter}.
     *
     * @throws IllegalArgumentException if {@code maxWait} is null or negative
     * @throws NullPointerException if {@code limiter} is null
     */
    public static RateLimitGate of(RateLimiter limiter, Duration maxWait) {
        long wait = maxWaitNanos(maxWait);
        Objects.requireNonNull(limiter, "limiter");
        return new RateLimitGate(p -> limiter.reserveN(limiter.clock().nanoTime(), 1, wait), wait,
            Schedulers.parallel());
    }

    /**
     * Each request uses the bucket of {@code key.apply(request)}.
     *
     * @throws IllegalArgumentException if {@code maxWait} is null or negative
     * @throws NullPointerException if {@code limiter} or {@code key} is null
     */
    public static <K> RateLimitGate of(KeyedRateLimiter<K> limiter, Function<Payload, K> key, Duration maxWait) {
        long wait = maxWaitNanos(maxWait);
        Objects.requireNonNull(limiter, "limiter");
        Objects.requireNonNull(key, "key");
        return new RateLimitGate(p -> limiter.reserveN(key.apply(p), limiter.clock().nanoTime(), 1, wait),
            wait, Schedulers.parallel());
    }

    /** {@code maxWait} in nanoseconds, checked before anything reads it; saturated at about 292 years. */
    private static long maxWaitNanos(Duration maxWait) {
        if (maxWait == null) {
            throw new IllegalArgumentException(
                "maxWait is null: Duration.ZERO refuses a request without a token at once");
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must be >= 0, got " + maxWait);
        }
        try {
            return maxWait.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public Mono<Void> admit(RequestType type, Payload request) {
        Reservation r = reserve.apply(request);
        if (!r.ok()) {
            return Mono.error(new RejectedException(RATE_LIMITED));
        }
        long delay = r.delayNanos();
        if (delay <= 0) {
            return null;
        }
        if (delay > maxWaitNanos) {
            r.cancel();
            return Mono.error(new RejectedException(RATE_LIMITED));
        }
        return Mono.delay(Duration.ofNanos(delay), timer).then().doOnCancel(r::cancel);
    }
}
