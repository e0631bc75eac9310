/**
 * A rate limiter shared by every process through Redis: {@link dev.sluice.limits.redis.RedisRateLimiter}, with the
 * semantics of {@link dev.sluice.limits.RateLimiter} (Go's {@code x/time/rate}) per key, one atomic Lua script per
 * decision on Redis's clock, and a {@link dev.sluice.limits.redis.FailurePolicy} for when Redis does not answer.
 * Answers are {@link dev.sluice.limits.redis.Decision}s. {@link dev.sluice.limits.redis.RedisRateLimitGate} puts
 * it in front of an RSocket server's handlers as a {@link dev.sluice.core.RequestGate}. The machinery lives in
 * {@code dev.sluice.limits.redis.internal}, which is not part of the API.
 */
package dev.sluice.limits.redis;
