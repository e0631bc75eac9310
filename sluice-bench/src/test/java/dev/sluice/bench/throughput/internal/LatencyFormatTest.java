package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The latency lines a client prints, which the driver parses: microseconds with two decimals. */
class LatencyFormatTest {

    @Test
    void nanosecondsPrintAsMicrosecondsRoundedToTwoDecimals() {
        assertThat(micros(0)).isEqualTo("0.00");
        assertThat(micros(4)).isEqualTo("0.00");
        assertThat(micros(5)).isEqualTo("0.01");
        assertThat(micros(1_090)).isEqualTo("1.09");
        assertThat(micros(1_234_567)).isEqualTo("1234.57");
        assertThat(micros(99_999_995)).isEqualTo("100000.00");
        assertThat(micros(Latency.HIGHEST_NANOS)).isEqualTo("60000000.00");
    }

    @Test
    void theLatencyLineCarriesTheCountAndEachPercentile() {
        Histogram h = Latency.newHistogram();
        for (int i = 0; i < 100; i++) {
            h.recordValue(1_000);
        }
        h.recordValue(2_000_000);
        String p50 = micros(h.getValueAtPercentile(50));
        String max = micros(h.getMaxValue());
        assertThat(Latency.line(h)).isEqualTo("latency count=101 p50=" + p50 + " p99=" + p50 + " p999=" + max
            + " max=" + max);
        assertThat(Latency.appendP99(new StringBuilder("tick 1 5 "), h).toString()).isEqualTo("tick 1 5 p99=" + p50);
        assertThat(p50).startsWith("1.00");
        assertThat(max).startsWith("200");
    }

    @Test
    void aSnapshotIsReusedByTheOneAfterTheNext() {
        Latency latency = new Latency();
        long now = System.nanoTime();
        latency.startMeasuring(now);
        latency.recordAll(new long[] {now}, 0, 1, now + 1_000_000);
        Histogram first = latency.snapshot();
        assertThat(first.getTotalCount()).isEqualTo(1);
        latency.record(now, now + 3_000_000);
        Histogram second = latency.snapshot();
        assertThat(second).isNotSameAs(first);
        assertThat(second.getTotalCount()).as("an answer off the loop joins the batch's histogram").isEqualTo(1);
        assertThat(second.getMaxValue()).isBetween(2_990_000L, 3_010_000L);
        assertThat(latency.snapshot()).as("taken back and emptied").isSameAs(first).extracting(Histogram::getTotalCount)
            .isEqualTo(0L);
    }

    private static String micros(long nanos) {
        return Latency.appendMicros(new StringBuilder(), nanos).toString();
    }
}
