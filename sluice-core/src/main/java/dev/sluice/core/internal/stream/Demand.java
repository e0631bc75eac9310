package dev.sluice.core.internal.stream;

/** Saturating arithmetic on Reactive Streams demand, where {@code Long.MAX_VALUE} means unbounded. */
public final class Demand {

    /** The wire value that rsocket-java and Sluice read as "unbounded" (2^31-1). */
    public static final long WIRE_UNBOUNDED = Integer.MAX_VALUE;

    private Demand() {
    }

    /** {@code a + b}, saturated at {@code Long.MAX_VALUE}. */
    public static long add(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * Credits granted to the peer after sending {@code n} on the wire: a grant of 2^31-1 or more is unbounded,
     * because that is how the peer reads it.
     */
    public static long grant(long outstanding, long n) {
        return n >= WIRE_UNBOUNDED ? Long.MAX_VALUE : add(outstanding, n);
    }
}
