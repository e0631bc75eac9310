package dev.sluice.limits.redis;

/**
 * What a {@link RedisRateLimiter} answers when Redis does not: it is unreachable, refuses the command, or does not
 * answer within the limiter's timeout. Such a {@link Decision} is {@link Decision#degraded() degraded}, so that
 * callers can count how often the policy, not the rate, decided.
 */
public enum FailurePolicy {

    /**
     * Allow: an outage of Redis does not become an outage of the service, but the rate is not enforced until Redis
     * answers again. The default, as in Envoy's rate limit filter.
     */
    FAIL_OPEN,

    /** Refuse: the rate is never exceeded, but nothing passes until Redis answers again. */
    FAIL_CLOSED
}
