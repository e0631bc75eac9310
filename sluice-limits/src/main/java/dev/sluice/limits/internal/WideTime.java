package dev.sluice.limits.internal;

/**
 * Instants wider than a {@code long}: a 128-bit two's-complement count of nanoseconds, held as a pair of
 * {@code long}s ({@code hi}, {@code lo}) with {@code lo} read as unsigned.
 *
 * <p>Why: a reservation acts at {@code now + wait}, and the wait of a zero or tiny limit is
 * {@link RateMath#INF_DURATION}. Go's {@code time.Time} holds that sum exactly (its range is billions of years), and
 * the sum then feeds {@code DelayFrom} and {@code CancelAt}; saturating it to a {@code long} would report other
 * delays than Go does. Every instant the limiter builds lies within a few multiples of 2^63 of zero, far inside
 * 128 bits. Only reservations and cancellations pay for the width: on the allow path the instant is {@code now}.
 *
 * <p>Not part of the API. Stateless; thread-safe.
 */
public final class WideTime {

    /**
     * The {@code hi} of an instant before every instant the limiter can build: Go's zero {@code time.Time}. Not
     * {@code Long.MIN_VALUE}, so that subtracting a real instant's {@code hi} (between -2 and 1) cannot overflow.
     */
    public static final long NEVER_HI = Long.MIN_VALUE / 2;

    /** The {@code lo} that goes with {@link #NEVER_HI}. */
    public static final long NEVER_LO = 0L;

    private WideTime() {
    }

    /** The {@code hi} of the instant {@code t}. */
    public static long hi(long t) {
        return t >> 63;
    }

    /** The {@code hi} of {@code (hi, lo) + d}. */
    public static long addHi(long hi, long lo, long d) {
        long sum = lo + d;
        // An unsigned carry out of lo shows as a sum below lo; d's sign extension adds -1 to hi when d < 0.
        return hi + (d >> 63) + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
    }

    /** The {@code lo} of {@code (hi, lo) + d}. */
    public static long addLo(long lo, long d) {
        return lo + d;
    }

    /** Compares {@code a} with {@code b}: negative, zero or positive as {@code a} is before, at or after {@code b}. */
    public static int compare(long aHi, long aLo, long bHi, long bLo) {
        int c = Long.compare(aHi, bHi);
        return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
    }

    /** {@code a - b} in nanoseconds, saturated to the {@code long} range as Go's {@code Time.Sub} saturates. */
    public static long sub(long aHi, long aLo, long bHi, long bLo) {
        long lo = aLo - bLo;
        long hi = aHi - bHi - (Long.compareUnsigned(aLo, bLo) < 0 ? 1 : 0);
        if (hi == (lo >> 63)) {
            return lo;
        }
        return hi < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
}
