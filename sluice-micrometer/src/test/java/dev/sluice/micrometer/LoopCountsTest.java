package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The latency sampling's stride on scripted clocks: about one timed request per millisecond, whatever the rate. */
class LoopCountsTest {

    private static final long MS = 1_000_000L;

    @Test
    void theStrideFollowsTheRateUpGraduallyAndDownAtOnce() {
        LoopCounts counts = new LoopCounts(Thread.currentThread(), 1);
        long now = 0;
        // 100,000 requests per second: one every 10 µs, so one in 100 is timed once the stride has grown.
        for (int sample = 0; sample < 20; sample++) {
            now += counts.stride() * 10_000L;
            counts.sampled(now);
        }
        assertThat(counts.stride()).isEqualTo(100);

        // The rate drops to 100 per second: the next sample (100 requests later, a second later) times every one.
        now += counts.stride() * 10 * MS;
        counts.sampled(now);
        assertThat(counts.stride()).isEqualTo(1);
    }

    @Test
    void theStrideAtMostDoublesPerSample() {
        LoopCounts counts = new LoopCounts(Thread.currentThread(), 1);
        long now = 0;
        for (int sample = 1; sample <= 5; sample++) {
            now += counts.stride(); // a request per nanosecond: far more than the target
            counts.sampled(now);
            assertThat(counts.stride()).isEqualTo(1L << sample);
        }
    }

    @Test
    void countsAreReadAsWritten() {
        LoopCounts counts = new LoopCounts(Thread.currentThread(), 3);
        counts.increment(1);
        counts.increment(1);
        counts.increment(2);
        assertThat(counts.get(0)).isZero();
        assertThat(counts.get(1)).isEqualTo(2);
        assertThat(counts.get(2)).isEqualTo(1);
    }
}
