package dev.sluice.limits.adaptive;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * What every {@link Limit} shares: the current estimate as a {@code double} (so that small steps accumulate
 * between whole numbers) and the listeners that hear when its whole part changes.
 */
abstract class ListenedLimit implements Limit {

    private static final IntConsumer[] NONE = new IntConsumer[0];

    private IntConsumer[] listeners = NONE;
    private double estimate;
    private int limit;

    ListenedLimit(double initial) {
        this.estimate = initial;
        this.limit = (int) initial;
    }

    @Override
    public final void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        if (rttNanos < 0) {
            throw new IllegalArgumentException("rttNanos < 0: " + rttNanos);
        }
        double next = update(estimate, nowNanos, rttNanos, inFlight, dropped);
        estimate = next;
        int whole = Math.max(1, (int) next);
        if (whole != limit) {
            limit = whole;
            for (IntConsumer l : listeners) {
                l.accept(whole);
            }
        }
    }

    /** Computes the next estimate from the current one; the result must already be within the bounds. */
    abstract double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped);

    @Override
    public final int limit() {
        return limit;
    }

    /** The estimate with its fraction, for tests and logs. */
    public final double estimate() {
        return estimate;
    }

    @Override
    public final void onChange(IntConsumer listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        // Copy on add: adds are rare (set-up), reads happen on every change.
        IntConsumer[] next = Arrays.copyOf(listeners, listeners.length + 1);
        next[listeners.length] = listener;
        listeners = next;
    }

    static double clamp(double v, double min, double max) {
        return Math.max(min, Math.min(max, v));
    }

    static void check(boolean ok, String condition, Object value) {
        if (!ok) {
            throw new IllegalArgumentException(condition + ": " + value);
        }
    }
}
