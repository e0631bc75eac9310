/**
 * The machinery behind {@code dev.sluice.limits.redis}: the bucket script that Redis runs for each decision
 * ({@link dev.sluice.limits.redis.internal.BucketScript}, its answer
 * {@link dev.sluice.limits.redis.internal.ScriptReply}) and the lazily connected, self-healing Lettuce connection
 * ({@link dev.sluice.limits.redis.internal.RedisLink}). Not part of the API: it may change in any release.
 */
package dev.sluice.limits.redis.internal;
