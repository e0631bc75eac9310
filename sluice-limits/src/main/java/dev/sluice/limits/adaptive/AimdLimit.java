package dev.sluice.limits.adaptive;

import java.time.Duration;

/**
 * Additive increase, multiplicative decrease, as TCP's congestion window: each sample that is neither dropped nor
 * slower than {@code timeout} adds {@code increase} to the limit, provided the service is using at least half of
 * it; a dropped or slow sample multiplies it by {@code backoffRatio}. Latency below the timeout is otherwise
 * ignored, so AIMD needs a drop signal or a timeout equal to the latency target to do anything useful.
 *
 * <p>Defaults: initial 20, min 20, max 200, backoff ratio 0.9, increase 1, timeout 5 s. Growth with an idle
 * service is skipped ({@code inFlight * 2 < limit}), so a quiet hour does not leave a huge limit behind.
 * Not thread-safe (see {@link Limit}).
 */
public final class AimdLimit extends ListenedLimit {

    private final int min;
    private final int max;
    private final double backoffRatio;
    private final double increase;
    private final long timeoutNanos;

    private AimdLimit(Builder b) {
        super(b.initial);
        this.min = b.min;
        this.max = b.max;
        this.backoffRatio = b.backoffRatio;
        this.increase = b.increase;
        this.timeoutNanos = b.timeout.toNanos();
    }

    /** A builder with the defaults above. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    double update(double current, long nowNanos, long rttNanos, int inFlight, boolean dropped) {
        if (dropped || rttNanos > timeoutNanos) {
            // Floor, so that a small limit still moves down (10 * 0.9 = 9, not 9.9 staying at 9 forever).
            return clamp(Math.floor(current * backoffRatio), min, max);
        }
        if (inFlight * 2L >= (long) current) {
            return clamp(current + increase, min, max);
        }
        return current;
    }

    @Override
    public String toString() {
        return "AimdLimit(" + limit() + " in [" + min + ", " + max + "])";
    }

    /** Settings of an {@link AimdLimit}; validated when set. */
    public static final class Builder extends BoundedBuilder<Builder> {
        private double backoffRatio = 0.9;
        private double increase = 1;
        private Duration timeout = Duration.ofSeconds(5);

        private Builder() {
            super(20, 20, 200);
        }

        /** The factor applied on a drop or timeout, in {@code [0.5, 1)}. */
        public Builder backoffRatio(double ratio) {
            check(ratio >= 0.5 && ratio < 1, "backoffRatio not in [0.5, 1)", ratio);
            this.backoffRatio = ratio;
            return this;
        }

        /** What one good sample adds, {@code > 0}. */
        public Builder increase(double increase) {
            check(increase > 0, "increase <= 0", increase);
            this.increase = increase;
            return this;
        }

        /** A sample slower than this counts as a drop. */
        public Builder timeout(Duration timeout) {
            check(timeout != null && timeout.toNanos() > 0, "timeout <= 0", timeout);
            this.timeout = timeout;
            return this;
        }

        /** @throws IllegalArgumentException if {@code min > max} */
        public AimdLimit build() {
            checkBounds();
            return new AimdLimit(this);
        }
    }
}
