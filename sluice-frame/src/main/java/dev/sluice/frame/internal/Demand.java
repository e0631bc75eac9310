package dev.sluice.frame.internal;

/**
 * Maps demand between the API's {@code long} and the wire's 31-bit field.
 *
 * <p>On the wire demand is a u31 that must be &gt; 0; 2^31-1 is read as unbounded ({@link Long#MAX_VALUE}), as
 * rsocket-java does, because the field cannot carry Reactive Streams' "effectively unbounded" 2^63-1.
 *
 * <p>Not part of the API. Stateless; thread-safe.
 */
public final class Demand {

    /** The wire value that means unbounded demand. */
    public static final int UNBOUNDED_WIRE = Integer.MAX_VALUE;

    private Demand() {
    }

    /**
     * The wire value for {@code n}: {@code n} itself up to 2^31-2, 2^31-1 for anything larger (unbounded).
     *
     * @throws IllegalArgumentException if {@code n < 1}: the protocol has no way to say "no demand", and a
     *     request(0) upstream is a bug the caller must see rather than a credit we invent
     */
    public static int toWire(String what, long n) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " < 1: " + n);
        }
        return n >= UNBOUNDED_WIRE ? UNBOUNDED_WIRE : (int) n;
    }

    /** The API value for a raw wire field: the top bit masked, 2^31-1 mapped to {@link Long#MAX_VALUE}. */
    public static long fromWire(int raw) {
        int n = raw & 0x7FFFFFFF;
        return n == UNBOUNDED_WIRE ? Long.MAX_VALUE : n;
    }
}
