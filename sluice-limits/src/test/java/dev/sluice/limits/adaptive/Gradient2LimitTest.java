package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Gradient2 on scripted latency, against its own long-term average (it has no target). */
class Gradient2LimitTest {

    private static final long MS = LatencyScript.MS;

    private static Gradient2Limit limit() {
        return Gradient2Limit.builder().initialLimit(20).minLimit(5).maxLimit(200).build();
    }

    @Test
    void steadyLatencyGrowsTheLimitBySmoothingTimesQueueSizePerSampleUpToItsMax() {
        LatencyScript s = new LatencyScript(limit());
        assertThat(s.busy(50, 10)).isBetween(59, 60);   // 20 + 50 * 0.8
        assertThat(s.busy(1_000, 10)).isEqualTo(200);
    }

    @Test
    void aLatencyStepShrinksItFastAndRecoveryGrowsItBackSlowly() {
        Gradient2Limit limit = limit();
        LatencyScript s = new LatencyScript(limit);
        s.busy(300, 10);
        assertThat(limit.limit()).isEqualTo(200);
        int shrunk = s.busy(10, 40);            // gradient 0.5: about 10% off per sample
        assertThat(shrunk).isLessThan(80);
        int recovered = s.busy(10, 10);         // gradient 1 again: + 0.8 per sample
        assertThat(recovered).isGreaterThan(shrunk).isLessThanOrEqualTo(shrunk + 8);
    }

    @Test
    void withoutATargetALastingSlowdownBecomesTheNewNormal() {
        Gradient2Limit limit = limit();
        LatencyScript s = new LatencyScript(limit);
        s.busy(300, 10);
        assertThat(s.busy(100, 40)).isLessThan(20);
        // The long-term average follows the new latency, and once 1.5 x average covers it the limit grows again.
        s.busy(2_000, 40);
        assertThat(limit.longRttNanos()).isBetween(39.0 * MS, 40.0 * MS);
        assertThat(limit.limit()).isEqualTo(200);
    }

    @Test
    void whenLatencyFallsFarBelowTheAverageTheAverageIsPulledDown() {
        Gradient2Limit limit = limit();
        LatencyScript s = new LatencyScript(limit);
        s.busy(10, 100);
        double before = limit.longRttNanos();
        s.busy(10, 10);
        // The EMA alone would leave it near 97 ms; the 5% pull per sample takes it well below.
        assertThat(limit.longRttNanos()).isLessThan(before * 0.65);
    }

    @Test
    void dropsTakeTheSmallestGradientAndTheMinHolds() {
        Gradient2Limit limit = Gradient2Limit.builder().initialLimit(100).minLimit(10).build();
        LatencyScript s = new LatencyScript(limit);
        assertThat(s.dropped(1, 1)).isEqualTo(90);     // 100 * 0.8 + 100 * 0.5 * 0.2
        assertThat(s.dropped(200, 1)).isEqualTo(10);
    }

    @Test
    void anIdleServiceChangesOnlyTheAverage() {
        Gradient2Limit limit = limit();
        LatencyScript s = new LatencyScript(limit);
        assertThat(s.idle(100, 50)).isEqualTo(20);
        assertThat(limit.longRttNanos()).isEqualTo(50.0 * MS);
    }
}
