package dev.sluice.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.load.StepStats;
import dev.sluice.cli.report.internal.Palette;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlaReportTest {

    /** Where the sample report goes; scripts/check-report-renders.sh opens it in headless Chromium. */
    static final Path SAMPLE = Path.of("target", "report-sample", "sla-report-sample.html");

    private static final Ramp RAMP = new Ramp(100, 600, 50, Duration.ofSeconds(5));

    /** The classic shape: success collapses past 450/s, every failure a 500 ms timeout. */
    private static LoadSummary unlimited() {
        List<StepStats> steps = new ArrayList<>();
        for (int i = 0; i < RAMP.steps(); i++) {
            int rate = RAMP.rate(i);
            long sent = rate * 5L;
            long ok = rate <= 400 ? sent : rate == 450 ? sent * 3 / 4 : 0;
            long timedOut = sent - ok;
            steps.add(new StepStats(i, rate, RAMP.stepDuration(), sent, ok, 0, timedOut, 0,
                ok == 0 ? Latency.NONE : latency(ok, rate <= 400 ? 23_000 : 300_000),
                timedOut == 0 ? Latency.NONE : latency(timedOut, 500_000), Latency.NONE, Map.of(), Map.of()));
        }
        return summary(steps, Latency.NONE);
    }

    /** With the limiter: at most 425/s succeed in ~100 ms, the rest are rejected in ~300 µs. */
    private static LoadSummary limited() {
        List<StepStats> steps = new ArrayList<>();
        for (int i = 0; i < RAMP.steps(); i++) {
            int rate = RAMP.rate(i);
            long sent = rate * 5L;
            long ok = Math.min(sent, 425 * 5);
            long rejected = sent - ok;
            Latency rejections = rejected == 0 ? Latency.NONE : latency(rejected, 300);
            steps.add(new StepStats(i, rate, RAMP.stepDuration(), sent, ok, rejected, 0, 0,
                latency(ok, rate <= 400 ? 23_000 : 97_000), rejections, rejections,
                rejected == 0 ? Map.of() : Map.of("rate_limited", rejected), Map.of()));
        }
        return summary(steps, latency(2000, 300));
    }

    private static Latency latency(long count, long p50) {
        return new Latency(count, p50, p50 * 11 / 10, p50 * 12 / 10, p50 * 13 / 10, p50 * 2);
    }

    private static LoadSummary summary(List<StepStats> steps, Latency rejections) {
        return new LoadSummary(RAMP, Duration.ofMillis(500), 16, RAMP.duration(), steps, List.of(), Map.of(),
            Latency.NONE, Latency.NONE, rejections, 0, 100, false);
    }

    private static SlaReport report() {
        return SlaReport.titled("Sluice SLA scenario (synthetic data)").note("10 workers, 25 ms <each>.")
            .headline("rejection latency p99 with the limiter: 390 µs")
            .withoutLimiter("no limiter", unlimited()).withLimiter("limiter 425/s", limited());
    }

    @Test
    void chartsCompareTheRunsAgainstOfferedLoad() throws IOException {
        String html = report().render();
        Files.createDirectories(SAMPLE.getParent());
        Files.writeString(SAMPLE, html);

        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(count(html, "<svg ")).isEqualTo(6);
        assertThat(count(html, "</svg>")).isEqualTo(6);
        // Offered-load axis: one label per step, on every chart.
        for (int rate : RAMP.rates()) {
            assertThat(count(html, ">" + rate + "</text>")).as("label %d", rate).isGreaterThanOrEqualTo(6);
        }
        assertThat(count(html, ">offered load (requests / s)</text>")).isEqualTo(6);
        // Success rate and goodput: one line per run (goodput also the offered line).
        assertThat(html).contains("stroke=\"" + Palette.UNLIMITED + "\"").contains("stroke=\"" + Palette.LIMITED
            + "\"");
        assertThat(html).contains("<title>no limiter, offered 500/s: 0.0 % succeeded (0 of 2500)</title>")
            .contains("<title>limiter 425/s, offered 600/s: 70.8 % succeeded (2125 of 3000)</title>")
            .contains("<title>limiter 425/s, offered 600/s: 425.0 successes/s</title>");
        // Latency: p50 and p95 of successes and failures; the unlimited run has no successes past 450/s.
        assertThat(html).contains("<title>limiter 425/s, offered 600/s: failure p95 360 µs (875)</title>")
            .contains("<title>no limiter, offered 600/s: failure p50 500 ms (3000)</title>")
            .doesNotContain("<title>no limiter, offered 600/s: success");
        // Outcomes: bars of successes, rejections and timeouts, with their legend swatches.
        assertThat(html).contains("<title>offered 600/s: 875 rejected</title>")
            .contains("<title>offered 600/s: 3000 timed out</title>")
            .contains("fill=\"" + Palette.TIMED_OUT + "\"");
        assertThat(count(html, "<rect ")).as("bars: 8 successes + 4 timeouts (unlimited), 11 successes + 4"
            + " rejections (limited); 3 + 3 legend swatches").isEqualTo(12 + 15 + 6);
        // Tables and headline.
        assertThat(html).contains("<p class=\"headline\">rejection latency p99 with the limiter: 390 µs</p>")
            .contains("<tr><td>600</td><td>3000</td><td>70.8 %</td><td>97 ms</td><td>116 ms</td><td>300 µs</td>")
            .contains("Rejections by message: rate_limited 2000.")
            .contains("0 failed. Rejection latency none (nothing was rejected).")
            .contains("10 workers, 25 ms &lt;each&gt;.");
        assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("http").doesNotContain("src=")
            .doesNotContain("href=").doesNotContain("url(").doesNotContain("<link").doesNotContain("<img");
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
