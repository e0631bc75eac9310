package dev.sluice.limits.redis;

import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.redis.internal.ScriptReply;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;

/**
 * The answer of a {@link RedisRateLimiter} to one request for tokens: whether the caller may act, after how long,
 * and whether Redis decided it or, because Redis did not answer in time, the limiter's {@link FailurePolicy}.
 *
 * <p>A decision is one of:
 * <ul>
 * <li><b>granted</b> by Redis: {@link #allowed()}, to act after {@link #delayNanos()} (0 for an allow), with
 *     {@link #tokens()} left in the bucket (negative while reservations wait). {@link #cancel()} gives the tokens
 *     back if the caller will not act after all.
 * <li><b>refused</b> by Redis, or without asking it (more tokens than the burst, a negative longest wait): not
 *     allowed, delay {@link RateLimiter#INF_DURATION}, and nothing changed.
 * <li><b>granted at once</b> without asking Redis, because the limit is {@link RateLimiter#INF infinite}.
 * <li><b>degraded</b>: Redis did not answer, and the policy allowed (delay 0) or refused; {@link #failure()} says
 *     why.
 * </ul>
 * {@link #tokens()} is NaN when Redis was not asked.
 *
 * <p>Immutable, except that {@link #cancel()} takes effect once; thread-safe.
 */
public final class Decision {

    private final RedisRateLimiter limiter;
    private final String key;
    private final int n;
    private final boolean allowed;
    private final long delayNanos;
    private final double tokens;
    private final Throwable failure;
    private final long redisMicros;
    private final String actMicros;
    private final long actNanos;
    private final AtomicBoolean cancelled;

    private Decision(RedisRateLimiter limiter, String key, int n, boolean allowed, long delayNanos, double tokens,
            Throwable failure, long redisMicros, String actMicros, long actNanos) {
        this.limiter = limiter;
        this.key = key;
        this.n = n;
        this.allowed = allowed;
        this.delayNanos = delayNanos;
        this.tokens = tokens;
        this.failure = failure;
        this.redisMicros = redisMicros;
        this.actMicros = actMicros;
        this.actNanos = actNanos;
        this.cancelled = actMicros != null ? new AtomicBoolean() : null;
    }

    /** What Redis answered to a reservation of {@code n} tokens of {@code key}. */
    static Decision ofReply(RedisRateLimiter limiter, String key, int n, ScriptReply reply) {
        return new Decision(limiter, key, n, reply.ok(), reply.ok() ? reply.waitNanos() : RateLimiter.INF_DURATION,
                reply.tokens(), null, reply.nowMicros(), reply.ok() ? reply.actMicros() : null, reply.actNanos());
    }

    /** Allowed at once without asking Redis: the limit is infinite. */
    static Decision unlimited() {
        return new Decision(null, null, 0, true, 0, Double.NaN, null, -1, null, 0);
    }

    /** Refused without asking Redis: Redis would refuse too, and change nothing. */
    static Decision refused() {
        return new Decision(null, null, 0, false, RateLimiter.INF_DURATION, Double.NaN, null, -1, null, 0);
    }

    /** Decided by {@code policy} because of {@code failure}. */
    static Decision degraded(FailurePolicy policy, Throwable failure) {
        boolean allow = policy == FailurePolicy.FAIL_OPEN;
        return new Decision(null, null, 0, allow, allow ? 0 : RateLimiter.INF_DURATION, Double.NaN, failure, -1,
                null, 0);
    }

    /** Whether the caller may act, once {@link #delayNanos()} have passed. */
    public boolean allowed() {
        return allowed;
    }

    /**
     * How long to wait before acting, in nanoseconds from the moment Redis decided: 0 to act at once;
     * {@link RateLimiter#INF_DURATION} if not allowed, or if the tokens never come (a zero rate with an unbounded
     * wait).
     */
    public long delayNanos() {
        return delayNanos;
    }

    /** {@link #delayNanos()} as a {@link Duration} ({@code Duration.ofNanos(Long.MAX_VALUE)} for never). */
    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /** The tokens left in the bucket when Redis decided (after this decision took its own); NaN if not asked. */
    public double tokens() {
        return tokens;
    }

    /** Whether the {@link FailurePolicy} decided, because Redis did not answer in time. */
    public boolean degraded() {
        return failure != null;
    }

    /** Why Redis did not decide (a timeout, a refused connection, an error reply); null if it did. */
    public Throwable failure() {
        return failure;
    }

    /** The instant Redis decided at, in microseconds of its {@code TIME}; -1 if it did not. For tests. */
    long redisMicros() {
        return redisMicros;
    }

    /**
     * Declares that the caller will not act, and gives back the tokens that reservations made since did not come to
     * depend on, as Go's {@code Reservation.CancelAt} at Redis's present. Emits whether tokens went back: false if
     * this decision took nothing from Redis (refused, degraded, infinite limit, 0 tokens), was already cancelled,
     * or its time to act has passed (the tokens are used). Errors if Redis does not answer within the timeout.
     * Only the first subscription to any of the Monos it returns does anything.
     */
    public Mono<Boolean> cancel() {
        if (cancelled == null || n == 0) {
            return Mono.just(false);
        }
        return Mono.defer(() -> cancelled.compareAndSet(false, true)
                ? limiter.cancel(key, n, actMicros, actNanos).map(ScriptReply::ok)
                : Mono.just(false));
    }

    /** The reply of the cancel, with the instant Redis decided it at; for tests. */
    Mono<ScriptReply> cancelReply() {
        if (cancelled == null || n == 0 || !cancelled.compareAndSet(false, true)) {
            return Mono.empty();
        }
        return limiter.cancel(key, n, actMicros, actNanos);
    }

    @Override
    public String toString() {
        if (failure != null) {
            return "Decision[degraded, " + (allowed ? "allowed" : "refused") + ", failure=" + failure + "]";
        }
        if (!allowed) {
            return "Decision[refused, tokens=" + tokens + "]";
        }
        return "Decision[allowed, delay=" + (delayNanos == RateLimiter.INF_DURATION ? "never" : delayNanos + " ns")
                + ", tokens=" + tokens + "]";
    }
}
