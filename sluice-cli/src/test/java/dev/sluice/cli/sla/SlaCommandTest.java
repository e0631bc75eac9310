package dev.sluice.cli.sla;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short SLA run end to end, and its argument errors. */
class SlaCommandTest {

    private static final Pattern ACCOUNTING = Pattern.compile(
        "accounting: sent (\\d+) = success (\\d+) \\+ rejected (\\d+) \\+ timed out (\\d+) \\+ failed (\\d+)");
    /** A table row: offered/s, sent, then the rest. */
    private static final Pattern ROW = Pattern.compile("(?m)^ +(\\d+) +(\\d+) +\\d+\\.\\d %.*$");

    /**
     * Three 1-second steps (100, 350, 600 requests/s) per run, with a limit of 100/s so that the limited run must
     * reject: every step sends exactly its rate, every request has one outcome, only the limited run rejects, and
     * with {@code rate_limited}.
     */
    @Test
    void aShortRunAddsUpRejectsOnlyWithTheLimiterAndWritesTheCharts(@TempDir Path dir) throws IOException {
        Path report = dir.resolve("sla.html");
        String out = CliRun.run("sla", "--from", "100", "--to", "600", "--step", "250", "--step-duration", "1s",
            "--warmup", "0s", "--rate-limit", "100/s", "--report", report.toString());

        assertThat(out).startsWith("0|").contains("== without the rate limiter ==")
            .contains("== with the rate limiter 100/s, burst 10, max wait 75ms ==")
            .contains("report: " + report.toAbsolutePath());
        String unlimited = out.substring(out.indexOf("without the rate limiter:\n"),
            out.indexOf("with the rate limiter 100/s, burst 10, max wait 75ms:\n"));
        String limited = out.substring(out.indexOf("with the rate limiter 100/s, burst 10, max wait 75ms:\n"),
            out.indexOf("rejection latency p99 with the limiter"));

        for (String table : List.of(unlimited, limited)) {
            List<long[]> rows = new ArrayList<>();
            Matcher row = ROW.matcher(table);
            while (row.find()) {
                rows.add(new long[] {Long.parseLong(row.group(1)), Long.parseLong(row.group(2))});
            }
            assertThat(rows).as("offered, sent per step:%n%s", table)
                .containsExactly(new long[] {100, 100}, new long[] {350, 350}, new long[] {600, 600});
            Matcher a = ACCOUNTING.matcher(table);
            assertThat(a.find()).as("the accounting line of%n%s", table).isTrue();
            assertThat(Long.parseLong(a.group(1))).as("sent = success + rejected + timed out + failed")
                .isEqualTo(1050)
                .isEqualTo(Long.parseLong(a.group(2)) + Long.parseLong(a.group(3)) + Long.parseLong(a.group(4))
                    + Long.parseLong(a.group(5)));
        }
        Matcher u = ACCOUNTING.matcher(unlimited);
        assertThat(u.find()).isTrue();
        assertThat(u.group(3)).as("nothing to reject without the limiter").isEqualTo("0");
        assertThat(unlimited).doesNotContain("rate_limited");
        Matcher l = ACCOUNTING.matcher(limited);
        assertThat(l.find()).isTrue();
        long rejected = Long.parseLong(l.group(3));
        assertThat(rejected).as("350 and 600/s against 100/s must be refused").isPositive();
        assertThat(limited).contains("rejected " + rejected + ": rate_limited");
        assertThat(out).contains("rejection latency p99 with the limiter: ")
            .contains("success p95 at 600 requests/s with the limiter: ");

        String html = Files.readString(report);
        assertThat(count(html, "<svg ")).as("success rate, goodput, latency x 2, outcomes x 2").isEqualTo(6);
        assertThat(html).contains(">Success rate</text>").contains(">Successes per second</text>")
            .contains(">Latency, no limiter</text>").contains(">Latency, limiter 100/s</text>")
            .contains(">Outcomes, no limiter</text>").contains(">Outcomes, limiter 100/s</text>")
            .contains(">offered load (requests / s)</text>").contains(">latency (log scale)</text>")
            .contains("<polyline ").contains("<rect ");
        assertThat(html).contains("rate_limited " + rejected);
        assertThat(html.toLowerCase()).doesNotContain("http://").doesNotContain("https://")
            .doesNotContain("<script");
    }

    @Test
    void wrongArgumentsAreUsageErrorsThatSayWhy() {
        assertThat(CliRun.run("sla", "--from", "600", "--to", "100")).startsWith("2|")
            .contains("--from and --to must satisfy 1 <= --from <= --to <= 10000000, got --from 600 --to 100");
        assertThat(CliRun.run("sla", "--step", "0")).startsWith("2|").contains("--step must be >= 1, got 0");
        assertThat(CliRun.run("sla", "--step", "70")).startsWith("2|")
            .contains("--to minus --from must be a multiple of --step, got --from 100 --to 600 --step 70");
        assertThat(CliRun.run("sla", "--step-duration", "0s")).startsWith("2|")
            .contains("--step-duration must be > 0, got 0ms");
        assertThat(CliRun.run("sla", "--timeout", "soon")).startsWith("2|")
            .contains("expected a duration such as 250ms, 1s, 2m or PT1S, got 'soon'");
        assertThat(CliRun.run("sla", "--rate-limit", "lots")).startsWith("2|")
            .contains("--rate-limit must look like 425/s, got 'lots'");
        assertThat(CliRun.run("sla", "--upstream-latency", "25ms..20ms")).startsWith("2|")
            .contains("--upstream-latency must have 0 <= MIN <= MAX, got '25ms..20ms'");
        assertThat(CliRun.run("sla", "--upstream-latency", "fast")).startsWith("2|")
            .contains("--upstream-latency must be MIN..MAX or one duration, e.g. 20ms..25ms, got 'fast'");
        assertThat(CliRun.run("sla", "--upstream-concurrency", "0")).startsWith("2|")
            .contains("--upstream-concurrency must be >= 1, got 0");
        assertThat(CliRun.run("sla", "--burst", "0")).startsWith("2|").contains("--burst must be >= 1, got 0");
        assertThat(CliRun.run("sla", "--nonsense")).startsWith("2|").contains("Unknown option: '--nonsense'");
    }

    @Test
    void helpNamesTheScenariosKnobs() {
        assertThat(CliRun.run("sla", "--help")).startsWith("0|").contains("Usage: sluice sla")
            .contains("--step-duration").contains("--timeout").contains("--rate-limit").contains("--max-wait")
            .contains("--upstream-concurrency").contains("--upstream-latency").contains("--report");
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
