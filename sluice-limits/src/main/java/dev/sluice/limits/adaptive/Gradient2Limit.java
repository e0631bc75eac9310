package dev.sluice.limits.adaptive;

/**
 * A limit steered by the ratio of long-term to current latency: with {@code longRtt} an exponential average over
 * about {@code longWindow} samples and {@code rtt} the current sample, the gradient is
 * {@code clamp(rttTolerance * longRtt / rtt, 0.5, 1)}, and the new limit {@code limit * gradient + queueSize},
 * smoothed ({@code smoothing} of the new value, the rest of the old). While latency stays within
 * {@code rttTolerance} of its long-term average the limit grows by about {@code smoothing * queueSize} per sample;
 * when it climbs past that, the limit shrinks by up to {@code smoothing / 2} of itself per sample.
 *
 * <p>Needs no latency target: its own long-term average is the reference, so a lasting change of the service's
 * speed becomes the new normal after a few hundred samples. When the current latency is less than half the
 * long-term average (an overload has just ended), the average is pulled down by 5% per sample so that the limit
 * grows again soon. The long-term average starts as a plain mean of the first 10 samples.
 *
 * <p>Unlike the algorithm it follows, a dropped sample counts: it takes the smallest gradient (0.5) and no queue
 * allowance, so that a drop signal (a missed latency target, a timeout) shrinks the limit, down to its min, even
 * when latency has not moved.
 *
 * <p>Defaults: initial 20, min 20, max 200, smoothing 0.2, queue size 4, long window 600 samples, rtt tolerance
 * 1.5. An idle service ({@code inFlight < limit / 2}) changes nothing but the average. Not thread-safe (see
 * {@link Limit}).
 */
public final class Gradient2Limit extends ListenedLimit {

    private static final int WARMUP_SAMPLES = 10;

    private final int min;
    private final int max;
    private final double smoothing;
    private final double queueSize;
    private final double tolerance;
    private final double emaFactor;

    private double longRttNanos;
    private int samples;

    private Gradient2Limit(Builder b) {
        super(b.initial);
        this.min = b.min;
        this.max = b.max;
        this.smoothing = b.smoothing;
        this.queueSize = b.queueSize;
        this.tolerance = b.tolerance;
        this.emaFactor = 2.0 / (b.longWindow + 1);
    }

    /** A builder with the defaults above. */
    public static Builder builder() {
        return new Builder();
    }

    /** The long-term latency average in nanoseconds: the reference the current latency is compared with. */
    public double longRttNanos() {
        return longRttNanos;
    }

    @Override
    double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        double shortRtt = Math.max(1, rttNanos);
        if (samples < WARMUP_SAMPLES) {
            samples++;
            longRttNanos += (shortRtt - longRttNanos) / samples;
        } else {
            longRttNanos += (shortRtt - longRttNanos) * emaFactor;
        }
        if (longRttNanos / shortRtt > 2) {
            // Latency fell far below the average: an overload is over; let the reference follow it down soon.
            longRttNanos *= 0.95;
        }
        if (!dropped && inFlight < current / 2) {
            return current;
        }
        // A drop backs off by the smallest gradient without the queue allowance: with it, drops alone would hold
        // the limit at 2 x queueSize (its fixed point), however low the min is set.
        double next = dropped ? current * 0.5 : current * clamp(tolerance * longRttNanos / shortRtt, 0.5, 1.0)
            + queueSize;
        next = current * (1 - smoothing) + next * smoothing;
        return clamp(next, min, max);
    }

    @Override
    public String toString() {
        return "Gradient2Limit(" + limit() + " in [" + min + ", " + max + "], longRtt " + (long) longRttNanos
            + " ns)";
    }

    /** Settings of a {@link Gradient2Limit}; validated when set. */
    public static final class Builder extends BoundedBuilder<Builder> {
        private double smoothing = 0.2;
        private double queueSize = 4;
        private int longWindow = 600;
        private double tolerance = 1.5;

        private Builder() {
            super(20, 20, 200);
        }

        /** The weight of the new value against the current one, in {@code (0, 1]}. */
        public Builder smoothing(double smoothing) {
            check(smoothing > 0 && smoothing <= 1, "smoothing not in (0, 1]", smoothing);
            this.smoothing = smoothing;
            return this;
        }

        /** What the limit may grow by per sample before smoothing, {@code >= 0}. */
        public Builder queueSize(double queueSize) {
            check(queueSize >= 0, "queueSize < 0", queueSize);
            this.queueSize = queueSize;
            return this;
        }

        /** About how many samples the long-term average spans, {@code >= 1}. */
        public Builder longWindow(int samples) {
            check(samples >= 1, "longWindow < 1", samples);
            this.longWindow = samples;
            return this;
        }

        /** How much slower than the long-term average a sample may be before the limit shrinks, {@code >= 1}. */
        public Builder rttTolerance(double tolerance) {
            check(tolerance >= 1, "rttTolerance < 1", tolerance);
            this.tolerance = tolerance;
            return this;
        }

        /** @throws IllegalArgumentException if {@code min > max} */
        public Gradient2Limit build() {
            checkBounds();
            return new Gradient2Limit(this);
        }
    }
}
