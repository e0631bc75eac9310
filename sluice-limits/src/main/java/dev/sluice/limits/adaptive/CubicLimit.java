package dev.sluice.limits.adaptive;

import java.time.Duration;

/**
 * TCP CUBIC's window curve (RFC 9438) applied to a limit: after an overload the limit restarts at
 * {@code backoffRatio} times what the service was taking, climbs back quickly towards that level, flattens out
 * just below it, and only past it probes faster and faster. So a limit that lives near a service's capacity
 * crosses it rarely and gently, yet recovers within seconds when the capacity comes back up after a slowdown —
 * which a constant additive increase cannot do both of.
 *
 * <ul>
 *   <li><b>Slow start</b>, until the first drop: the limit doubles every {@code doubling} of sample time while
 *       the service is busy, so an unknown capacity is found in a few doublings; four times slower once the
 *       samples' latency has risen (HyStart++'s test, RFC 9406: the least latency of a round of samples, a quarter
 *       of a doubling, an eighth over the round before's, at least 4 ms), so that the overshoot is smaller.</li>
 *   <li><b>A drop</b>: with {@code taking} the smaller of the limit and {@code inFlight} (what the service was
 *       really taking when it overloaded, so an overshooting limit does not count), the limit becomes
 *       {@code floor(taking * backoffRatio)} and a new curve starts, flattening out at {@code wMax} = halfway between
 *       the two, {@code taking * (1 + backoffRatio) / 2}: what the service took was already too much (CUBIC's "fast
 *       convergence", applied at every drop). The drop that ends slow start comes after an overshoot of up to a
 *       doubling, and what the service took then overstates it too: the limit restarts at
 *       {@code slowStartBackoffRatio} times {@code taking}, and the curve starts flat there (or, if latency had
 *       risen, and slow start slowed down, flattens out halfway back).</li>
 *   <li><b>Otherwise</b>, while busy: {@code limit = wMax + scale * (t - k)^3}, with {@code t} the seconds since
 *       the drop and {@code k} the time the curve takes to climb from where it restarted back to {@code wMax}
 *       ({@code cbrt((wMax - limit) / scale)} at the drop). The limit never moves down
 *       without a drop. Once the curve is an eighth past {@code wMax} without a drop, the old ceiling has gone (the
 *       service got faster): the limit grows as in slow start, four times slower, until the next drop.</li>
 *   <li><b>Idle</b> ({@code inFlight * 2 < limit}): nothing grows, and the curve's clock stands still, so that a
 *       quiet minute does not leave a huge limit behind.</li>
 * </ul>
 *
 * <p>Latency other than the drop signal is ignored, as in {@link AimdLimit}: feed it drops (a missed latency
 * target). Sizing leases per second, as {@code dev.sluice.core.RateLeases} does, a limit of 120 is 120 requests
 * per second and {@code inFlight} is the rate the service was taking.
 *
 * <p>Defaults: initial 10, min 1, max 100,000, backoff ratio 0.9, slow start backoff ratio 0.6, scale 0.1 (limit
 * units per second cubed), doubling 400 ms (about a fifth more each 100 ms, so that the overload which ends slow
 * start is seen before the limit is far past it). Not thread-safe (see {@link Limit}).
 */
public final class CubicLimit extends ListenedLimit {

    private static final long NO_SAMPLE = Long.MIN_VALUE;
    /** How far past {@code wMax} the curve goes before the old ceiling counts as gone. */
    private static final double BEYOND = 1.125;
    /** How many times slower than slow start the limit then doubles. */
    private static final int BEYOND_SLOWDOWN = 4;

    private final int min;
    private final int max;
    private final double backoffRatio;
    private final double slowStartBackoffRatio;
    private final double scale;
    private final long doublingNanos;

    /** In slow start, whether latency has started to rise (then the limit doubles four times slower). */
    private final LatencyRise rise;
    private boolean slowStart = true;
    private boolean beyond;
    private double wMax;
    private double k;
    private long epochNanos;
    private long lastNanos = NO_SAMPLE;

    private CubicLimit(Builder b) {
        super(b.initial);
        this.min = b.min;
        this.max = b.max;
        this.backoffRatio = b.backoffRatio;
        this.slowStartBackoffRatio = b.slowStartBackoffRatio;
        this.scale = b.scale;
        this.doublingNanos = b.doubling.toNanos();
        this.rise = new LatencyRise(doublingNanos / 4);
    }

    /** A builder with the defaults above. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        long elapsed = lastNanos == NO_SAMPLE ? 0 : Math.max(0, nowNanos - lastNanos);
        lastNanos = nowNanos;
        if (dropped) {
            double taking = Math.min(current, Math.max(1, inFlight));
            double next;
            if (slowStart) {
                // Slow start overshot before the drop was seen, and what the service took then overstates it too:
                // restart well below. Doubling fast, by up to a doubling: only probe upwards from there. Doubling
                // four times slower since latency rose, by less: climb back quickly to halfway.
                slowStart = false;
                next = Math.floor(taking * slowStartBackoffRatio);
                wMax = rise.risen() ? taking * (1 + slowStartBackoffRatio) / 2 : next;
            } else {
                // Floor, so that a small limit still moves down (5 * 0.9 = 4, not 4.5 read as 4 and kept forever).
                next = Math.floor(taking * backoffRatio);
                // What the service took when the drop came was already too much: the curve flattens out halfway
                // between that and the backoff (CUBIC's "fast convergence", applied at every drop).
                wMax = taking * (1 + backoffRatio) / 2;
            }
            next = clamp(next, min, max);
            wMax = Math.max(wMax, next);
            k = Math.cbrt((wMax - next) / scale);
            epochNanos = nowNanos;
            beyond = false;
            return next;
        }
        if (inFlight * 2L < (long) current) {
            epochNanos += elapsed;
            return current;
        }
        if (slowStart || beyond) {
            // Four times slower past the old ceiling, and in slow start once latency has risen.
            boolean slower = beyond || rise.sample(nowNanos, rttNanos);
            long doubling = slower ? BEYOND_SLOWDOWN * doublingNanos : doublingNanos;
            return clamp(current * Math.pow(2, (double) elapsed / doubling), min, max);
        }
        double t = (nowNanos - epochNanos) / 1e9 - k;
        double curve = wMax + scale * t * t * t;
        if (curve > wMax * BEYOND) {
            // Well past the old ceiling without a drop: it has gone (the service got faster). Find the new one.
            beyond = true;
        }
        return clamp(Math.max(current, curve), min, max);
    }

    /** True until the first drop. */
    public boolean inSlowStart() {
        return slowStart;
    }

    @Override
    public String toString() {
        return "CubicLimit(" + limit() + " in [" + min + ", " + max + "]" + (slowStart ? ", slow start" : ", wMax "
            + (int) wMax) + ")";
    }

    /** Settings of a {@link CubicLimit}; each is checked when set. */
    public static final class Builder extends BoundedBuilder<Builder> {
        private double backoffRatio = 0.9;
        private double slowStartBackoffRatio = 0.6;
        private double scale = 0.1;
        private Duration doubling = Duration.ofMillis(400);

        private Builder() {
            super(10, 1, 100_000);
        }

        /** The share of the overloaded level the limit restarts from, in {@code [0.5, 1)}. */
        public Builder backoffRatio(double ratio) {
            check(ratio >= 0.5 && ratio < 1, "backoffRatio not in [0.5, 1)", ratio);
            this.backoffRatio = ratio;
            return this;
        }

        /**
         * The share the first drop, the one ending slow start, restarts from, in {@code [0.5, 1)}: lower than
         * {@link #backoffRatio}, because slow start overshoots by up to a doubling before the first drop is seen.
         */
        public Builder slowStartBackoffRatio(double ratio) {
            check(ratio >= 0.5 && ratio < 1, "slowStartBackoffRatio not in [0.5, 1)", ratio);
            this.slowStartBackoffRatio = ratio;
            return this;
        }

        /** The curve's steepness, {@code > 0}: larger recovers faster and crosses the old level harder. */
        public Builder scale(double scale) {
            check(scale > 0 && Double.isFinite(scale), "scale <= 0", scale);
            this.scale = scale;
            return this;
        }

        /** How long slow start takes to double the limit, {@code > 0}. */
        public Builder doubling(Duration doubling) {
            check(doubling != null && doubling.toNanos() > 0, "doubling <= 0", doubling);
            this.doubling = doubling;
            return this;
        }

        public CubicLimit build() {
            checkBounds();
            return new CubicLimit(this);
        }
    }
}
