package dev.sluice.cli.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScalesTest {

    @Test
    void linearAxisEndsAtANiceMaximumWithRoundTicks() {
        Object[][] rows = {
            // data max, axis max, tick labels
            {974.0, 1000.0, List.of("0", "200", "400", "600", "800", "1000")},
            {1000.0, 1000.0, List.of("0", "200", "400", "600", "800", "1000")},
            {1030.0, 1250.0, List.of("0", "250", "500", "750", "1000", "1250")},
            {300.0, 300.0, List.of("0", "100", "200", "300")},
            {7.0, 8.0, List.of("0", "2", "4", "6", "8")},
            {0.0, 1.0, List.of("0", "0.2", "0.4", "0.6", "0.8", "1")},   // nothing to show: still an axis
        };
        for (Object[] row : rows) {
            LinearScale s = new LinearScale((double) row[0], 10, 110);
            assertThat(s.max()).as("max for %s", row[0]).isEqualTo((double) row[1]);
            assertThat(s.ticks()).extracting(Tick::label).as("ticks for %s", row[0]).isEqualTo(row[2]);
        }
    }

    @Test
    void linearAxisMapsZeroToTheBottomAndClamps() {
        LinearScale s = new LinearScale(1000, 10, 110);
        assertThat(s.pixel(0)).isEqualTo(110);
        assertThat(s.pixel(1000)).isEqualTo(10);
        assertThat(s.pixel(500)).isEqualTo(60);
        assertThat(s.pixel(-5)).isEqualTo(110);
        assertThat(s.pixel(5000)).isEqualTo(10);
        assertThatThrownBy(() -> new LinearScale(1, 110, 10)).hasMessage("bottom <= top: bottom=10.0, top=110.0");
    }

    @Test
    void logAxisSpansWholeDecadesWithReadableLabels() {
        Object[][] rows = {
            // min µs, max µs, labels of the major ticks
            {800.0, 4_900_000.0, List.of("10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s", "10 s")},
            {1_200.0, 19_000.0, List.of("10 µs", "100 µs", "1 ms", "10 ms", "100 ms")}, // at least to 100 ms
            {3.0, 40.0, List.of("1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms")},
            {0.0, 0.0, List.of("1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms")},  // no data
        };
        for (Object[] row : rows) {
            LogScale s = new LogScale((double) row[0], (double) row[1], 0, 120);
            assertThat(s.ticks()).filteredOn(Tick::major).extracting(Tick::label).as("for %s..%s", row[0], row[1])
                .isEqualTo(row[2]);
        }
    }

    @Test
    void logAxisIsEvenPerDecadeAndClamps() {
        LogScale s = new LogScale(800, 4_900_000, 0, 120);   // 10 µs .. 10 s: 6 decades over 120 px
        assertThat(s.pixel(10)).isEqualTo(120);
        assertThat(s.pixel(1_000)).isEqualTo(80);
        assertThat(s.pixel(1_000_000)).isEqualTo(20);
        assertThat(s.pixel(10_000_000)).isEqualTo(0);
        assertThat(s.pixel(0)).as("0 µs sits on the axis' floor").isEqualTo(120);
        assertThat(s.pixel(1e12)).isEqualTo(0);
        assertThat(s.ticks()).filteredOn(t -> !t.major()).hasSize(6 * 8);
    }

    @Test
    void xLabelsAreThinnedToAtMostTwelve() {
        int[][] rows = {
            // seconds, label step
            {1, 1}, {12, 1}, {13, 2}, {22, 2}, {24, 5}, {59, 5}, {60, 10}, {110, 10}, {120, 15}, {7_200, 1_200},
            {100_000, 9_091},
        };
        for (int[] row : rows) {
            assertThat(Plot.xStep(row[0])).as("seconds=%d", row[0]).isEqualTo(row[1]);
        }
    }

    @Test
    void htmlIsEscapedAndCoordinatesAreShort() {
        assertThat(Html.escape("<a href=\"x\">'&'</a>"))
            .isEqualTo("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        assertThat(Html.coordinate(12.0)).isEqualTo("12");
        assertThat(Html.coordinate(12.04)).isEqualTo("12");
        assertThat(Html.coordinate(12.06)).isEqualTo("12.1");
        assertThat(Html.coordinate(-0.25)).isEqualTo("-0.2");
        assertThat(Html.rate(299.96)).isEqualTo("300.0");
    }
}
