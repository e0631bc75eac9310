package dev.sluice.limits.internal;

/**
 * The settings of a token bucket, shared by every state of it (and by every bucket of a keyed limiter): the rate,
 * the burst, and a threshold precomputed from them that spares the hot path its floating-point work.
 *
 * <p>The threshold: after a call takes 1 token from a full bucket, the bucket is full again once more than
 * {@link #fullAfterOneToken} ns have elapsed. It is the exact answer of Go's arithmetic, found by bisection over
 * all durations, which is valid because that arithmetic is monotone in the elapsed time (IEEE rounding of sums and
 * of products by a positive rate preserves order, and {@code Duration.Seconds} never decreases). A limiter that is
 * not overloaded then decides {@code allow()} with one integer comparison.
 *
 * <p>Not part of the API. Immutable; thread-safe.
 */
final class BucketConfig {

    /** The threshold of a bucket that never fills again: no elapsed time exceeds it. */
    static final long NEVER = Long.MAX_VALUE;

    /** Tokens per second; {@link RateMath#INF} for no limit. */
    final double limit;
    /** The bucket's size: the most tokens one call can take, and the most the bucket holds. */
    final int burst;
    /** {@code burst - 1} as the double a bucket holds after one token is taken from it when full. */
    final double burstLessOne;
    /** See the class doc; {@link #NEVER} if the bucket never refills, or the burst is 0. */
    final long fullAfterOneToken;

    BucketConfig(double limit, int burst) {
        this.limit = limit;
        this.burst = burst;
        this.burstLessOne = burst - 1.0;
        this.fullAfterOneToken = burst < 1 ? NEVER : fullAfter(burst - 1.0, limit, burst);
    }

    /**
     * The longest elapsed time after which a bucket holding {@code tokens} is still not full: Go's
     * {@code tokens + tokensFromDuration(elapsed) >= burst} holds for every longer elapsed time and fails for this
     * one. -1 if the bucket is full at once; {@link #NEVER} if it never fills.
     */
    static long fullAfter(double tokens, double limit, int burst) {
        if (isFull(tokens, 0, limit, burst)) {
            return -1;
        }
        if (!isFull(tokens, Long.MAX_VALUE, limit, burst)) {
            return NEVER;
        }
        // Invariant: not full after lo, full after hi.
        long lo = 0;
        long hi = Long.MAX_VALUE;
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (isFull(tokens, mid, limit, burst)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    private static boolean isFull(double tokens, long elapsed, double limit, int burst) {
        return tokens + RateMath.tokensFromDuration(limit, elapsed) >= burst;
    }
}
