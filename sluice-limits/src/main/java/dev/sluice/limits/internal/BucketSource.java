package dev.sluice.limits.internal;

/**
 * Where a wait takes its tokens from: the one bucket of a limiter, or the bucket of a key in a keyed limiter,
 * looked up again each time it turns out retired.
 *
 * <p>Not part of the API. Implementations are thread-safe.
 */
public interface BucketSource {

    /** The bucket to use at {@code now}, or {@code null} if none can be had; then {@link #refusal()} says why. */
    TokenBucket bucketAt(long now);

    /** The message of the error a wait fails with when {@link #bucketAt} returned {@code null}. */
    String refusal();
}
