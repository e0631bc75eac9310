package dev.sluice.cli.report;

import static dev.sluice.cli.report.internal.Html.escape;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.StepStats;
import dev.sluice.cli.report.internal.Html;
import dev.sluice.cli.report.internal.Palette;
import dev.sluice.cli.report.internal.StepCharts;
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
 * A self-contained HTML report of the SLA scenario: the same ramp of offered load run without and with a rate
 * limiter, compared step by step — the success rate and the successes per second against offered load (both runs on
 * one chart), then per run the p50/p95 latency of successes and of failures (log scale) and the outcomes per step,
 * and a table of each run's figures.
 *
 * <p>Self-contained as {@link HtmlReport}, with which it shares its style: inline CSS and SVG, nothing fetched.
 *
 * <pre>{@code
 * SlaReport.titled("Sluice SLA scenario").note("...").withoutLimiter("no limiter", unlimited)
 *     .withLimiter("limiter 425/s", limited).write(Path.of("sla-report.html"));
 * }</pre>
 *
 * <p>Not thread-safe while being built; {@link #render()} may be called any number of times.
 */
public final class SlaReport {

    private final String title;
    private final List<String> notes = new ArrayList<>();
    private RunInfo run;
    private final List<String> headlines = new ArrayList<>();
    private StepCharts.Run unlimited;
    private StepCharts.Run limited;
    private LoadSummary unlimitedSummary;
    private LoadSummary limitedSummary;

    private SlaReport(String title) {
        this.title = title;
    }

    /** A report with this title (page title and heading). */
    public static SlaReport titled(String title) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("title must not be blank, got '" + title + "'");
        }
        return new SlaReport(title);
    }

    /** States where the numbers come from (date, version, command line, machine) under the title. */
    public SlaReport run(RunInfo info) {
        this.run = info;
        return this;
    }

    /** Adds a paragraph under the title, e.g. how the runs were set up. */
    public SlaReport note(String paragraph) {
        notes.add(paragraph);
        return this;
    }

    /** Adds a highlighted paragraph after the notes: a headline figure. */
    public SlaReport headline(String text) {
        headlines.add(text);
        return this;
    }

    /** The run without the limiter, named {@code name} in the charts. */
    public SlaReport withoutLimiter(String name, LoadSummary run) {
        unlimited = new StepCharts.Run(name, Palette.UNLIMITED, run.steps());
        unlimitedSummary = run;
        return this;
    }

    /** The run with the limiter, named {@code name} in the charts. */
    public SlaReport withLimiter(String name, LoadSummary run) {
        limited = new StepCharts.Run(name, Palette.LIMITED, run.steps());
        limitedSummary = run;
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
        List<StepCharts.Run> runs = new ArrayList<>();
        if (unlimited != null) {
            runs.add(unlimited);
        }
        if (limited != null) {
            runs.add(limited);
        }
        StringBuilder b = new StringBuilder(96 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
            .append(escape(title)).append("</title>\n<style>\n").append(Stylesheet.CSS)
            .append("</style>\n</head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n");
        if (run != null) {
            b.append(Html.provenance(run.date(), run.version(), run.commandLine(), run.machine()));
        }
        for (String note : notes) {
            b.append("<p class=\"note\">").append(escape(note)).append("</p>\n");
        }
        for (String headline : headlines) {
            b.append("<p class=\"headline\">").append(escape(headline)).append("</p>\n");
        }
        if (!runs.isEmpty()) {
            long[] range = StepCharts.latencyRange(runs);
            b.append("<div class=\"charts\">\n")
                .append(StepCharts.successRate("Success rate", runs))
                .append(StepCharts.goodput("Successes per second", runs));
            for (StepCharts.Run r : runs) {
                b.append(StepCharts.latency("Latency, " + r.name(), r, range[0], range[1]));
            }
            for (StepCharts.Run r : runs) {
                b.append(StepCharts.outcomes("Outcomes, " + r.name(), r));
            }
            b.append("</div>\n");
        }
        if (unlimited != null) {
            runSection(b, unlimited.name(), unlimitedSummary);
        }
        if (limited != null) {
            runSection(b, limited.name(), limitedSummary);
        }
        b.append("<footer>Open-loop load: each request has an intended send time and is sent then, whatever the"
            + " answers do; every latency is measured from that time (no coordinated omission), and a request counts"
            + " in the step in which it was due. Success = answered in time; rejected = ERROR[REJECTED]; timed out ="
            + " not answered within the requester's timeout (then cancelled); failed = any other error. Failure"
            + " latency = how long the requester waited to learn of a failure. Generated by sluice.</footer>\n"
            + "</body>\n</html>\n");
        return b.toString();
    }

    private static void runSection(StringBuilder b, String name, LoadSummary run) {
        b.append("<section class=\"run\">\n<h2>").append(escape(name)).append("</h2>\n<p class=\"facts\">")
            .append(String.format(Locale.ROOT, "Sent %d requests: %d succeeded, %d rejected, %d timed out (%s),"
                    + " %d failed.", run.sent(), run.successes(), run.rejected(), run.timedOut(),
                run.timeout() == null ? "no timeout" : "after " + run.timeout().toMillis() + " ms", run.failed()))
            .append(" Rejection latency ").append(percentiles(run.rejectionLatency())).append(".</p>\n")
            .append("<table class=\"steps\">\n<thead><tr><th>offered / s</th><th>sent</th><th>success</th>")
            .append("<th>success p50</th><th>success p95</th><th>failure p50</th><th>failure p95</th>")
            .append("<th>failure p99</th><th>rejected</th><th>timed out</th><th>failed</th></tr></thead>\n<tbody>\n");
        for (StepStats s : run.steps()) {
            b.append("<tr><td>").append(s.offeredRate()).append("</td><td>").append(s.sent()).append("</td><td>")
                .append(String.format(Locale.ROOT, "%.1f %%", 100 * s.successRatio())).append("</td><td>")
                .append(cell(s.successLatency(), s.successLatency().p50Micros())).append("</td><td>")
                .append(cell(s.successLatency(), s.successLatency().p95Micros())).append("</td><td>")
                .append(cell(s.failureLatency(), s.failureLatency().p50Micros())).append("</td><td>")
                .append(cell(s.failureLatency(), s.failureLatency().p95Micros())).append("</td><td>")
                .append(cell(s.failureLatency(), s.failureLatency().p99Micros())).append("</td><td>")
                .append(s.rejected()).append("</td><td>").append(s.timedOut()).append("</td><td>")
                .append(s.failed()).append("</td></tr>\n");
        }
        b.append("</tbody>\n</table>\n");
        Map<String, Long> messages = run.rejectionsByMessage();
        if (!messages.isEmpty()) {
            b.append("<p class=\"facts\">Rejections by message:");
            String sep = " ";
            for (Map.Entry<String, Long> m : messages.entrySet()) {
                b.append(sep).append(escape(m.getKey())).append(" ").append(m.getValue());
                sep = ", ";
            }
            b.append(".</p>\n");
        }
        b.append("</section>\n");
    }

    private static String percentiles(Latency l) {
        if (l.isEmpty()) {
            return "none (nothing was rejected)";
        }
        return "p50 " + Latency.format(l.p50Micros()) + ", p95 " + Latency.format(l.p95Micros()) + ", p99 "
            + Latency.format(l.p99Micros()) + ", max " + Latency.format(l.maxMicros());
    }

    private static String cell(Latency l, long micros) {
        return l.isEmpty() ? "–" : escape(Latency.format(micros));
    }
}
