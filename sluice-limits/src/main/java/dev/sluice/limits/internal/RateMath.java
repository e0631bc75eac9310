package dev.sluice.limits.internal;

/**
 * The unit conversions of the token bucket, in the exact float64 arithmetic of Go's {@code x/time/rate}.
 *
 * <p>Every result is bit-for-bit what {@code golang.org/x/time/rate} v0.16.0 computes on amd64 for the same inputs,
 * which is what lets the oracle vectors compare tokens exactly: the order of operations, the split of a duration
 * into seconds and nanoseconds, and the truncating float-to-integer conversions all follow Go. Java never fuses a
 * multiply and an add, and neither does Go on amd64 (it may on arm64, where the oracle's floats can differ).
 *
 * <p>Not part of the API. Stateless; thread-safe. Durations and instants are nanoseconds; rates are tokens per
 * second.
 */
public final class RateMath {

    /** The infinite rate: a limiter with this limit allows every event, even with a burst of 0. */
    public static final double INF = Double.MAX_VALUE;

    /** The duration that stands for "never": what a reservation that is not OK reports as its delay. */
    public static final long INF_DURATION = Long.MAX_VALUE;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private RateMath() {
    }

    /**
     * {@code d} in seconds, computed as Go's {@code Duration.Seconds}: whole seconds plus the fraction, each
     * converted on its own. Converting {@code d} at once would lose the low nanoseconds of long durations
     * (golang/go#34861), and a different split gives different bits.
     */
    public static double seconds(long d) {
        if (d >= 0 && d < NANOS_PER_SECOND) {
            // The common case, without the long division: 0.0 + x is x for x >= 0, the same bits.
            return (double) d / 1e9;
        }
        long sec = d / NANOS_PER_SECOND;
        long nsec = d % NANOS_PER_SECOND;
        return (double) sec + (double) nsec / 1e9;
    }

    /**
     * Whether {@code tokens} plus what accumulates in {@code elapsed} ns at {@code limit} per second reaches
     * {@code burst}, decided without a division when it clearly does; a true answer is exact, a false one means
     * "compute {@code tokensFromDuration} and see". A bucket that fills up is thus refilled without the costliest
     * instruction of the path.
     *
     * <p>Why it is exact: {@code nsec * 1e-9 * (1 - 2^-50)} is below {@code nsec / 1e9} rounded (three roundings
     * err by at most 2^-53 each, which the factor outweighs), and IEEE addition and multiplication by a positive
     * number are monotone; so the sum computed from this lower bound is at most the sum Go computes, and if even
     * it reaches the burst, Go's does.
     *
     * @param elapsed a duration &gt;= 0
     * @param limit a rate &gt; 0
     */
    public static boolean reachesBurst(double tokens, long elapsed, double limit, int burst) {
        long sec = 0;
        long nsec = elapsed;
        if (elapsed >= NANOS_PER_SECOND) {
            sec = elapsed / NANOS_PER_SECOND;
            nsec = elapsed % NANOS_PER_SECOND;
        }
        double atMostSeconds = (double) sec + (double) nsec * 1e-9 * (1 - 0x1p-50);
        return tokens + atMostSeconds * limit >= burst;
    }

    /** The tokens that accumulate in {@code d} nanoseconds at {@code limit} per second; 0 when the limit is 0. */
    public static double tokensFromDuration(double limit, long d) {
        if (limit <= 0) {
            return 0;
        }
        return seconds(d) * limit;
    }

    /**
     * The nanoseconds it takes to accumulate {@code tokens} at {@code limit} per second, truncated toward zero.
     *
     * <p>{@link #INF_DURATION} when the limit is 0 (the tokens never come) or when the duration does not fit a
     * {@code long} (a tiny limit such as 1e-10, golang/go#71154). Go tests {@code duration > MaxInt64}, where the
     * bound rounds to 2^63, so a duration of exactly 2^63 slips through and Go's amd64 conversion turns it into
     * {@code MinInt64}, a negative wait; that value is out of range, and we report it as the overflow it is.
     * Negative durations below {@code Long.MIN_VALUE} saturate, which is also what Go's amd64 conversion yields.
     */
    public static long durationFromTokens(double limit, double tokens) {
        if (limit <= 0) {
            return INF_DURATION;
        }
        double duration = tokens / limit * 1e9;
        if (duration >= 0x1p63) {
            return INF_DURATION;
        }
        return (long) duration;
    }

    /** {@code a - b}, saturated to the {@code long} range as Go's {@code Time.Sub} saturates. */
    public static long saturatingSub(long a, long b) {
        long r = a - b;
        // Overflow iff the operands have different signs and the result's sign differs from a's.
        if (((a ^ b) & (a ^ r)) < 0) {
            return a < b ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /** {@code a + b}, saturated to the {@code long} range. */
    public static long saturatingAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /** The rate of one event per {@code intervalNanos}, as Go's {@code Every}: {@link #INF} when it is &lt;= 0. */
    public static double every(long intervalNanos) {
        if (intervalNanos <= 0) {
            return INF;
        }
        return 1 / seconds(intervalNanos);
    }

    /**
     * A user's rate as the limiter stores it.
     *
     * @throws IllegalArgumentException if it is negative or NaN; {@link Double#POSITIVE_INFINITY} becomes
     *     {@link #INF}, because Go's infinity is {@code MaxFloat64} and an IEEE infinity would turn
     *     {@code 0 * limit} into NaN
     */
    public static double checkLimit(double perSecond) {
        if (!(perSecond >= 0)) {
            throw new IllegalArgumentException("limit < 0 or NaN: " + perSecond);
        }
        return perSecond == Double.POSITIVE_INFINITY ? INF : perSecond;
    }

    /** @throws IllegalArgumentException if {@code burst < 0} */
    public static int checkBurst(int burst) {
        if (burst < 0) {
            throw new IllegalArgumentException("burst < 0: " + burst);
        }
        return burst;
    }

    /** @throws IllegalArgumentException if {@code n < 0} */
    public static int checkN(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n < 0: " + n);
        }
        return n;
    }
}
