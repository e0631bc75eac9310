package dev.sluice.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.report.internal.Palette;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    /** Where the sample report goes; scripts/check-report-renders.sh opens it in headless Chromium. */
    static final Path SAMPLE = Path.of("target", "report-sample", "sluice-report-sample.html");

    private static HtmlReport demoLike() {
        return HtmlReport.titled("Sluice lease demo (synthetic data)").scenarioHeader("leased requests")
            .note("3 servers behind a least-loaded proxy, 1000 requests/s, 20 s per scenario.")
            .scenario("9999", SyntheticRuns.saturated(20))
            .scenario("100", SyntheticRuns.leased(20, 300, 19_000, 0))
            .scenario("30", SyntheticRuns.leased(20, 90, 4_000, 7));
    }

    @Test
    void summaryTableComesFirstWithEachScenariosFigures() {
        String html = demoLike().render();

        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        int table = html.indexOf("<table class=\"summary\">");
        assertThat(table).isPositive().isLessThan(html.indexOf("<svg"));
        assertThat(html).contains("<th>leased requests</th><th>p99 latency</th><th>accepted / s</th>"
            + "<th>rejected / s</th>");
        assertThat(html)
            .contains("<tr><td>9999</td><td>4.88 s</td><td>1000.0</td><td>0.0</td><td>0.0</td><td>1000.0</td>")
            .contains("<tr><td>100</td><td>19 ms</td><td>300.0</td><td>700.0</td><td>0.0</td><td>1000.0</td>")
            .contains("<tr><td>30</td><td>4 ms</td><td>90.0</td><td>909.7</td><td>0.4</td><td>1000.0</td>");
        assertThat(html).contains("3 servers behind a least-loaded proxy");
    }

    @Test
    void eachScenarioHasARequestsChartAndALatencyChartWithAxesAndLegends() {
        String html = demoLike().render();

        assertThat(count(html, "<svg ")).isEqualTo(6);
        assertThat(count(html, "</svg>")).isEqualTo(6);
        assertThat(count(html, "<section class=\"scenario\"")).isEqualTo(3);
        // Bars: 20 + 1 draining accepted (9999), 2 x 20 accepted and rejected, 1 failed; 2 + 2 + 3 legend swatches.
        assertThat(count(html, "<rect ")).isEqualTo(21 + 40 + 41 + 7);
        assertThat(html).contains("fill=\"" + Palette.ACCEPTED + "\"").contains("fill=\"" + Palette.REJECTED + "\"")
            .contains("fill=\"" + Palette.FAILED + "\"");
        assertThat(count(html, "<polyline ")).as("p50 + p99, and rejections' p99 where there are some")
            .isEqualTo(2 + 3 + 3);
        assertThat(html).contains("stroke=\"" + Palette.P50 + "\"").contains("stroke=\"" + Palette.P99 + "\"");
        assertThat(html).contains(">requests / s</text>").contains(">latency (log scale)</text>")
            .contains(">second of the run</text>");
        assertThat(html).contains(">1 ms</text>").contains(">100 ms</text>").contains(">1 s</text>")
            .contains(">10 s</text>");
        assertThat(html).contains(">accepted</text>").contains(">rejected</text>").contains(">p50</text>")
            .contains(">p99</text>");
        assertThat(html).contains("<title>second 3: 300 accepted</title>")
            .contains("<title>9999: requests per second by outcome</title>");
        assertThat(html).contains("<td>127.0.0.1:7002</td><td>2000</td><td>100.0</td><td>33.3 %</td>");
        assertThat(html).contains("<td>no answer within the drain timeout (10 s)</td><td>7</td>");
    }

    @Test
    void aScenarioWithServerTimelinesChartsEachServersLeasesAndLatency() {
        List<ServerTimeline.Second> fast = new ArrayList<>();
        List<ServerTimeline.Second> slow = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            fast.add(new ServerTimeline.Second(120, 118, 19_500));
            slow.add(new ServerTimeline.Second(i < 10 ? 60 : 115, i < 10 ? 59 : 113, i == 4 ? -1 : 21_000));
        }
        String html = HtmlReport.titled("adaptive").scenario("adaptive", SyntheticRuns.leased(20, 300, 19_000, 0),
            List.of(new ServerTimeline("127.0.0.1:7001", fast), new ServerTimeline("127.0.0.1:7002", slow)))
            .render();

        assertThat(count(html, "<svg ")).isEqualTo(4);
        assertThat(html).contains("<title>adaptive: leases per server</title>")
            .contains("<title>adaptive: p99 per server</title>")
            .contains(">leased requests / s</text>").contains(">server p99 (log scale)</text>")
            .contains(">:7001</text>").contains(">:7002</text>")
            .contains("<title>127.0.0.1:7002, second 3: 60 leased</title>")
            .contains("<title>127.0.0.1:7002, second 11: 115 leased</title>")
            .contains("<title>127.0.0.1:7001, second 1: p99 19.5 ms</title>")
            .doesNotContain("127.0.0.1:7002, second 5: p99");
        // One lease line per server; latency lines: one for the fast server, two for the slow one (a gap at 5 s).
        assertThat(count(html, "stroke=\"" + Palette.server(1) + "\"")).isGreaterThanOrEqualTo(3);
    }

    @Test
    void referencesNothingOutsideItselfAndEscapesWhatItQuotes() {
        String html = HtmlReport.titled("t <b>").scenario("<script>alert(1)</script>",
            SyntheticRuns.leased(3, 300, 19_000, 0)).render();

        assertThat(html).contains("<h1>t &lt;b&gt;</h1>").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("http").doesNotContain("src=")
            .doesNotContain("href=").doesNotContain("url(").doesNotContain("@import").doesNotContain("<link")
            .doesNotContain("<img").doesNotContain("<iframe");
    }

    @Test
    void aRunWithoutAnswersStillDrawsItsAxes() {
        String html = HtmlReport.titled("t").scenario("all rejected", SyntheticRuns.leased(2, 0, 1_000, 0)).render();

        assertThat(count(html, "<svg ")).isEqualTo(2);
        assertThat(html).contains("<tr><td>all rejected</td><td>–</td><td>0.0</td><td>1000.0</td>");
        assertThat(html).contains(">100 ms</text>");
    }

    @Test
    void rejectsABlankTitleAndMissingScenarioParts() {
        assertThatThrownBy(() -> HtmlReport.titled(" ")).hasMessage("title must not be blank, got ' '");
        assertThatThrownBy(() -> HtmlReport.titled("t").scenario("x", null))
            .hasMessage("name, summary and servers must not be null, got x, null, []");
    }

    /** Writes the sample report that scripts/check-report-renders.sh opens in a browser. */
    @Test
    void writesTheSampleReport() throws IOException {
        Files.deleteIfExists(SAMPLE);
        HtmlReport report = demoLike();

        Path written = report.write(SAMPLE);

        assertThat(written).isEqualTo(SAMPLE);
        assertThat(Files.readString(SAMPLE, StandardCharsets.UTF_8)).isEqualTo(report.render());
    }

    private static int count(String text, String literal) {
        Matcher m = Pattern.compile(Pattern.quote(literal)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void statesDateVersionCommandLineAndMachine() {
        RunInfo run = new RunInfo(java.time.Instant.parse("2026-11-26T15:40:00Z"), "0.1.0", "sluice demo --rps <9>",
            "host-1 (Linux 6.8 amd64, 2 processors)");
        for (String html : new String[] {
            HtmlReport.titled("t").run(run).scenario("x", SyntheticRuns.leased(2, 0, 1_000, 0)).render(),
            SlaReport.titled("t").run(run).render()}) {
            assertThat(html).contains("<dt>date</dt><dd>2026-11-26T15:40:00Z</dd>")
                .contains("<dt>version</dt><dd>sluice 0.1.0</dd>")
                .contains("<dt>command</dt><dd><code>sluice demo --rps &lt;9&gt;</code></dd>")
                .contains("<dt>machine</dt><dd>host-1 (Linux 6.8 amd64, 2 processors)</dd>");
        }
    }
}
