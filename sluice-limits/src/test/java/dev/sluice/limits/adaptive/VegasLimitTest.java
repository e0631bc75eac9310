package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Vegas on scripted latency. The first rows are the algorithm's published vectors (initial 10, max 20, so
 * alpha 3, beta 6, threshold 1); then steps and recovery on a wider range.
 */
class VegasLimitTest {

    private static final long MS = LatencyScript.MS;

    private static VegasLimit limit(int initial, int max) {
        return VegasLimit.builder().initialLimit(initial).maxLimit(max).random(new SplittableRandom(1)).build();
    }

    @Test
    void noQueueGrowsTheLimitByBeta() {
        VegasLimit limit = limit(10, 20);
        limit.onSample(0, 10 * MS, 10, false);   // sets rttNoLoad
        assertThat(limit.limit()).isEqualTo(10);
        limit.onSample(10 * MS, 10 * MS, 11, false);
        assertThat(limit.limit()).isEqualTo(16);
    }

    @Test
    void aLongQueueShrinksIt() {
        VegasLimit limit = limit(10, 20);
        limit.onSample(0, 10 * MS, 10, false);
        limit.onSample(10 * MS, 50 * MS, 11, false);  // queue = ceil(10 * 0.8) = 8 > beta 6
        assertThat(limit.limit()).isEqualTo(9);
    }

    @Test
    void aQueueBetweenAlphaAndBetaLeavesItAlone() {
        VegasLimit limit = limit(10, 20);
        limit.onSample(0, 10 * MS, 10, false);
        limit.onSample(10 * MS, 14 * MS, 14, false);  // queue = ceil(10 * 4 / 14) = 3
        assertThat(limit.limit()).isEqualTo(10);
    }

    @Test
    void steadyLatencyGrowsToTheMaxAndAStepShrinksItThenRecoveryGrowsItBack() {
        VegasLimit limit = limit(20, 500);
        LatencyScript s = new LatencyScript(limit);
        assertThat(s.busy(1, 10)).isEqualTo(20);
        assertThat(s.busy(60, 10)).isEqualTo(500);
        int before = limit.limit();
        assertThat(s.busy(50, 50)).isLessThan(before - 50);     // -2 (log10) per sample
        int low = limit.limit();
        int after = s.busy(5, 10);
        assertThat(after).isGreaterThan(low).isLessThanOrEqualTo(low + 5 * 12);  // at most beta per sample
    }

    @Test
    void dropsShrinkItDownToTheMin() {
        VegasLimit limit = VegasLimit.builder().initialLimit(50).minLimit(8).build();
        LatencyScript s = new LatencyScript(limit);
        s.busy(1, 10);
        assertThat(s.dropped(1, 10)).isEqualTo(49);
        assertThat(s.dropped(100, 10)).isEqualTo(8);
    }

    @Test
    void theNoLoadLatencyIsRemeasuredAfterAProbeInterval() {
        RandomGenerator lowestJitter = () -> 0L;   // nextDouble() = 0: jitter 0.5
        VegasLimit limit = VegasLimit.builder().initialLimit(10).maxLimit(10).probeMultiplier(2)
            .random(lowestJitter).build();
        LatencyScript s = new LatencyScript(limit);
        s.busy(1, 10);
        s.idle(8, 30);                             // idle: the limit stays 10, so the interval stays 10 samples
        assertThat(limit.rttNoLoadNanos()).isEqualTo(10 * MS);
        s.idle(1, 30);                             // the 10th sample: 0.5 * 2 * 10 reached
        assertThat(limit.rttNoLoadNanos()).isEqualTo(30 * MS);
    }

    @Test
    void log10IsAtLeastOne() {
        assertThat(VegasLimit.log10(1)).isEqualTo(1);
        assertThat(VegasLimit.log10(99)).isEqualTo(1);
        assertThat(VegasLimit.log10(100)).isEqualTo(2);
        assertThat(VegasLimit.log10(1000)).isEqualTo(3);
    }
}
