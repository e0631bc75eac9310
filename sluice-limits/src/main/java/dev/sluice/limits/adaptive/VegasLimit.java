package dev.sluice.limits.adaptive;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * TCP Vegas applied to concurrency: the limit is compared with the queue it implies. With {@code rttNoLoad} the
 * lowest latency seen (the service with nothing queued) and {@code rtt} a sample's latency, the estimated queue
 * is {@code ceil(limit * (1 - rttNoLoad / rtt))}. A short queue grows the limit, a long one shrinks it; a drop
 * always shrinks it. The thresholds scale with {@code log10(limit)}: alpha = 3 log, beta = 6 log; a queue up to
 * 1 log grows the limit by beta, below alpha by 1 log; above beta it shrinks by 1 log.
 *
 * <p>{@code rttNoLoad} only falls, so it is re-measured now and then: after {@code probeMultiplier * limit}
 * samples times a jitter in {@code [0.5, 1)} (so that many servers do not probe together), the next sample
 * becomes the new {@code rttNoLoad}. The jitter comes from the builder's {@link RandomGenerator}, so tests can fix
 * it.
 *
 * <p>Defaults: initial 20, min 1, max 1000, smoothing 1.0 (none), probe multiplier 30. An idle service
 * ({@code inFlight * 2 < limit}) does not grow the limit. Not thread-safe (see {@link Limit}).
 */
public final class VegasLimit extends ListenedLimit {

    private final int min;
    private final int max;
    private final double smoothing;
    private final int probeMultiplier;
    private final RandomGenerator random;

    private long rttNoLoadNanos;
    private double probeJitter;
    private long probeCount;

    private VegasLimit(Builder b) {
        super(b.initial);
        this.min = b.min;
        this.max = b.max;
        this.smoothing = b.smoothing;
        this.probeMultiplier = b.probeMultiplier;
        this.random = b.random;
        this.probeJitter = nextJitter();
    }

    /** A builder with the defaults above. */
    public static Builder builder() {
        return new Builder();
    }

    /** The lowest latency seen since the last probe, in nanoseconds; 0 before the first sample. */
    public long rttNoLoadNanos() {
        return rttNoLoadNanos;
    }

    @Override
    double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        probeCount++;
        if (probeJitter * probeMultiplier * current <= probeCount) {
            probeJitter = nextJitter();
            probeCount = 0;
            rttNoLoadNanos = rttNanos;
            return current;
        }
        if (rttNoLoadNanos == 0 || rttNanos < rttNoLoadNanos) {
            rttNoLoadNanos = rttNanos;
            return current;
        }
        int whole = (int) current;
        int log = log10(whole);
        int queue = (int) Math.ceil(current * (1 - (double) rttNoLoadNanos / rttNanos));
        double next;
        if (dropped) {
            next = current - log;
        } else if (inFlight * 2L < whole) {
            return current;
        } else if (queue <= log) {
            next = current + 6 * log;
        } else if (queue < 3 * log) {
            next = current + log;
        } else if (queue > 6 * log) {
            next = current - log;
        } else {
            return current;
        }
        next = clamp(next, min, max);
        return (1 - smoothing) * current + smoothing * next;
    }

    private double nextJitter() {
        return 0.5 + random.nextDouble() * 0.5;
    }

    /** {@code max(1, floor(log10(n)))}: the step and threshold unit. */
    static int log10(int n) {
        int log = 0;
        for (int v = n; v >= 10; v /= 10) {
            log++;
        }
        return Math.max(1, log);
    }

    @Override
    public String toString() {
        return "VegasLimit(" + limit() + " in [" + min + ", " + max + "], rttNoLoad " + rttNoLoadNanos + " ns)";
    }

    /** Settings of a {@link VegasLimit}; validated when set. */
    public static final class Builder extends BoundedBuilder<Builder> {
        private double smoothing = 1.0;
        private int probeMultiplier = 30;
        private RandomGenerator random = new SplittableRandom();

        private Builder() {
            super(20, 1, 1000);
        }

        /** The weight of the new value against the current one, in {@code (0, 1]}; 1 means no smoothing. */
        public Builder smoothing(double smoothing) {
            check(smoothing > 0 && smoothing <= 1, "smoothing not in (0, 1]", smoothing);
            this.smoothing = smoothing;
            return this;
        }

        /** How many limits' worth of samples between re-measurements of the no-load latency, {@code >= 1}. */
        public Builder probeMultiplier(int multiplier) {
            check(multiplier >= 1, "probeMultiplier < 1", multiplier);
            this.probeMultiplier = multiplier;
            return this;
        }

        /** Where the probe jitter comes from; fix its seed in tests. */
        public Builder random(RandomGenerator random) {
            check(random != null, "random is null", random);
            this.random = random;
            return this;
        }

        /** @throws IllegalArgumentException if {@code min > max} */
        public VegasLimit build() {
            checkBounds();
            return new VegasLimit(this);
        }
    }
}
