/**
 * The machinery behind {@code dev.sluice.limits}: Go's arithmetic ({@link dev.sluice.limits.internal.RateMath},
 * {@link dev.sluice.limits.internal.WideTime}), the lock-free bucket
 * ({@link dev.sluice.limits.internal.TokenBucket}), the table of keyed buckets and the wait operator. Not part of the
 * API: it may change in any release.
 */
package dev.sluice.limits.internal;
