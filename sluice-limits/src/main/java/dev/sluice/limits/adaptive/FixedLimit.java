package dev.sluice.limits.adaptive;

/**
 * A limit that never moves: the baseline to compare the adaptive ones with, and the choice when the right number
 * is known. Samples are accepted and ignored.
 */
public final class FixedLimit extends ListenedLimit {

    private FixedLimit(int limit) {
        super(limit);
    }

    /** @throws IllegalArgumentException if {@code limit < 1} */
    public static FixedLimit of(int limit) {
        check(limit >= 1, "limit < 1", limit);
        return new FixedLimit(limit);
    }

    @Override
    double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        return current;
    }

    @Override
    public String toString() {
        return "FixedLimit(" + limit() + ")";
    }
}
