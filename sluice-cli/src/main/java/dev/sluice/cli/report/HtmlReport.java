package dev.sluice.cli.report;

import static dev.sluice.cli.report.internal.Html.escape;
import static dev.sluice.cli.report.internal.Html.rate;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.report.internal.Html;
import dev.sluice.cli.report.internal.LatencyChart;
import dev.sluice.cli.report.internal.RequestsChart;
import dev.sluice.cli.report.internal.ServerLinesChart;
import dev.sluice.cli.report.internal.Stylesheet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML report of load runs: a summary table of every scenario at the top (like the lease demo's
 * table: p99 latency, accepted and rejected per second), then per scenario its numbers, its per-server split and
 * two charts — requests per second by outcome, and p50/p99 latency per second on a log scale.
 *
 * <p>Self-contained: one file with inline CSS and inline SVG drawn here; no script, no font, no image, nothing
 * fetched, so it opens offline and can be mailed or archived as is.
 *
 * <pre>{@code
 * HtmlReport.titled("Sluice lease demo").scenarioHeader("leased requests")
 *     .scenario("9999", summary9999).scenario("100", summary100)
 *     .write(Path.of("sluice-demo.html"));
 * }</pre>
 *
 * <p>Not thread-safe while being built; {@link #render()} may be called any number of times.
 */
public final class HtmlReport {


    private final String title;
    private final List<String> notes = new ArrayList<>();
    private RunInfo run;
    private final List<Entry> scenarios = new ArrayList<>();
    private String scenarioHeader = "scenario";

    private HtmlReport(String title) {
        this.title = title;
    }

    /** A report with this title (page title and heading). */
    public static HtmlReport titled(String title) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("title must not be blank, got '" + title + "'");
        }
        return new HtmlReport(title);
    }

    /** States where the numbers come from (date, version, command line, machine) under the title. */
    public HtmlReport run(RunInfo info) {
        this.run = info;
        return this;
    }

    /** Adds a paragraph under the title, e.g. how the runs were set up. */
    public HtmlReport note(String paragraph) {
        notes.add(paragraph);
        return this;
    }

    /** The header of the summary table's first column, naming the scenarios (default {@code scenario}). */
    public HtmlReport scenarioHeader(String header) {
        this.scenarioHeader = header;
        return this;
    }

    /** Adds a scenario: its name (e.g. {@code lease 100/s}) and what the load run measured. */
    public HtmlReport scenario(String name, LoadSummary summary) {
        return scenario(name, summary, List.of());
    }

    /**
     * Adds a scenario with what each server saw during it: its section then also charts each server's leases and
     * latency per second.
     */
    public HtmlReport scenario(String name, LoadSummary summary, List<ServerTimeline> servers) {
        if (name == null || summary == null || servers == null) {
            throw new IllegalArgumentException("name, summary and servers must not be null, got " + name + ", "
                + summary + ", " + servers);
        }
        scenarios.add(new Entry(name, summary, List.copyOf(servers)));
        return this;
    }

    /** Writes the report to {@code file} (UTF-8), creating its directory if needed, and returns the file. */
    public Path write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        return Files.writeString(file, render(), StandardCharsets.UTF_8);
    }

    /** The whole page. */
    public String render() {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
            .append(escape(title)).append("</title>\n<style>\n").append(Stylesheet.CSS)
            .append("</style>\n</head>\n<body>\n")
            .append("<h1>").append(escape(title)).append("</h1>\n");
        if (run != null) {
            b.append(Html.provenance(run.date(), run.version(), run.commandLine(), run.machine()));
        }
        for (String note : notes) {
            b.append("<p class=\"note\">").append(escape(note)).append("</p>\n");
        }
        summaryTable(b);
        for (int i = 0; i < scenarios.size(); i++) {
            scenarioSection(b, i + 1, scenarios.get(i));
        }
        b.append("<footer>Latencies are measured from each request's intended send time (open-loop load, no"
            + " coordinated omission); a second's counts are the outcomes that arrived during it. Accepted = answered"
            + " by a server; rejected = ERROR[REJECTED]; failed = any other error or no answer before the drain"
            + " timeout. Generated by sluice.</footer>\n</body>\n</html>\n");
        return b.toString();
    }

    private void summaryTable(StringBuilder b) {
        b.append("<table class=\"summary\">\n<thead><tr><th>").append(escape(scenarioHeader))
            .append("</th><th>p99 latency</th><th>accepted / s</th><th>rejected / s</th><th>failed / s</th>")
            .append("<th>sent / s</th><th>p50 latency</th></tr></thead>\n<tbody>\n");
        for (Entry e : scenarios) {
            LoadSummary s = e.summary();
            b.append("<tr><td>").append(escape(e.name())).append("</td><td>")
                .append(latency(s.successLatency(), s.successLatency().p99Micros())).append("</td><td>")
                .append(rate(s.successesPerSecond())).append("</td><td>").append(rate(s.rejectedPerSecond()))
                .append("</td><td>").append(rate(s.failedPerSecond())).append("</td><td>")
                .append(rate(s.perSecond(s.sent()))).append("</td><td>")
                .append(latency(s.successLatency(), s.successLatency().p50Micros())).append("</td></tr>\n");
        }
        b.append("</tbody>\n</table>\n");
    }

    private static void scenarioSection(StringBuilder b, int index, Entry e) {
        LoadSummary s = e.summary();
        String name = escape(e.name());
        b.append("<section class=\"scenario\" id=\"scenario-").append(index).append("\">\n<h2>").append(name)
            .append("</h2>\n<p class=\"facts\">")
            .append(String.format(Locale.ROOT, "Sent %d requests at %s/s (planned %s for %s s, payload %d"
                    + " bytes): %d accepted, %d rejected, %d failed.", s.sent(), rate(s.achievedRate()),
                s.ramp().describe(), seconds(s), s.payloadSize(), s.successes(), s.rejected(), s.failed()))
            .append(" Response latency ").append(percentiles(s.successLatency()))
            .append("; rejection latency ").append(percentiles(s.rejectionLatency())).append(".</p>\n");
        b.append("<div class=\"charts\">\n")
            .append(RequestsChart.render(e.name() + ": requests per second by outcome", s.seconds()))
            .append(LatencyChart.render(e.name() + ": latency of responses per second", s.seconds()));
        if (!e.servers().isEmpty()) {
            b.append(ServerLinesChart.leases(e.name() + ": leases per server", e.servers()))
                .append(ServerLinesChart.latency(e.name() + ": p99 per server", e.servers()));
        }
        b.append("</div>\n");
        if (!s.responsesByServer().isEmpty()) {
            b.append("<table class=\"servers\">\n<thead><tr><th>answered by</th><th>responses</th>")
                .append("<th>per s</th><th>share</th></tr></thead>\n<tbody>\n");
            for (Map.Entry<String, Long> server : s.responsesByServer().entrySet()) {
                b.append("<tr><td>").append(escape(server.getKey())).append("</td><td>").append(server.getValue())
                    .append("</td><td>").append(rate(s.perSecond(server.getValue()))).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f %%", 100.0 * server.getValue() / s.successes()))
                    .append("</td></tr>\n");
            }
            b.append("</tbody>\n</table>\n");
        }
        if (!s.failuresByCause().isEmpty()) {
            b.append("<table class=\"failures\">\n<thead><tr><th>failed because</th><th>requests</th></tr></thead>")
                .append("\n<tbody>\n");
            for (Map.Entry<String, Long> f : s.failuresByCause().entrySet()) {
                b.append("<tr><td>").append(escape(f.getKey())).append("</td><td>").append(f.getValue())
                    .append("</td></tr>\n");
            }
            b.append("</tbody>\n</table>\n");
        }
        b.append("</section>\n");
    }

    private static String percentiles(Latency l) {
        if (l.isEmpty()) {
            return "none";
        }
        return "p50 " + Latency.format(l.p50Micros()) + ", p90 " + Latency.format(l.p90Micros()) + ", p99 "
            + Latency.format(l.p99Micros()) + ", max " + Latency.format(l.maxMicros());
    }

    private static String latency(Latency l, long micros) {
        return l.isEmpty() ? "–" : escape(Latency.format(micros));
    }

    private static String seconds(LoadSummary s) {
        double sec = s.duration().toNanos() / 1e9;
        return sec == Math.rint(sec) ? Long.toString((long) sec) : String.format(Locale.ROOT, "%.3f", sec);
    }

    private record Entry(String name, LoadSummary summary, List<ServerTimeline> servers) {
    }
}
