package dev.sluice.frame;

/**
 * Reactive Streams demand as RSocket carries it: a {@code long} in the API, where {@link Long#MAX_VALUE} means
 * unbounded, and a u31 on the wire (REQUEST_N's n, the initial request N of REQUEST_STREAM and REQUEST_CHANNEL),
 * where 2^31-1 means unbounded.
 *
 * <p><b>The wire mapping.</b> {@link #toWire} sends {@code n} as itself up to 2^31-2 and anything larger as
 * 2^31-1; {@link #fromWire} reads 2^31-1 back as {@link Long#MAX_VALUE}, as rsocket-java does, because the field
 * cannot carry the 2^63-1 that Reactive Streams calls "effectively unbounded". There is no wire value for "no
 * demand": a valid field is &ge; 1, and {@code toWire} refuses anything smaller.
 *
 * <p><b>The arithmetic.</b> Demand only grows until it is spent, and once unbounded it stays so: {@link #add}
 * saturates at {@link Long#MAX_VALUE} instead of overflowing, and {@link #grant} counts a grant of 2^31-1 or more
 * as unbounded, because that is how the peer reads it. Both expect non-negative arguments.
 *
 * <p>Stateless; thread-safe. Nothing allocates unless {@code toWire} throws.
 */
public final class Demand {

    /** The wire value that means unbounded demand: 2^31-1, the largest a u31 can hold. */
    public static final int UNBOUNDED_WIRE = Integer.MAX_VALUE;

    private Demand() {
    }

    /**
     * The wire value for {@code n}: {@code n} itself up to 2^31-2, {@link #UNBOUNDED_WIRE} for anything larger.
     *
     * @param what names the value in the exception's message ("n", "initialRequestN")
     * @throws IllegalArgumentException if {@code n < 1}: the protocol has no way to say "no demand", and a
     *     request(0) upstream is a bug the caller must see rather than a credit we invent
     */
    public static int toWire(String what, long n) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " < 1: " + n);
        }
        return n >= UNBOUNDED_WIRE ? UNBOUNDED_WIRE : (int) n;
    }

    /**
     * The API value of a raw wire field: the reserved top bit masked off, {@link #UNBOUNDED_WIRE} mapped to
     * {@link Long#MAX_VALUE}. A field of 0 reads as 0; {@link FrameValidator} refuses such frames.
     */
    public static long fromWire(int raw) {
        int n = raw & 0x7FFFFFFF;
        return n == UNBOUNDED_WIRE ? Long.MAX_VALUE : n;
    }

    /** {@code a + b} for {@code a, b >= 0}, saturated at {@link Long#MAX_VALUE} (unbounded stays unbounded). */
    public static long add(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * The credits the peer holds after this side sent {@code n} on top of {@code outstanding}: unbounded when
     * {@code n >= 2^31-1} (the peer reads the clamped wire value as unbounded), else {@code add(outstanding, n)}.
     */
    public static long grant(long outstanding, long n) {
        return n >= UNBOUNDED_WIRE ? Long.MAX_VALUE : add(outstanding, n);
    }
}
