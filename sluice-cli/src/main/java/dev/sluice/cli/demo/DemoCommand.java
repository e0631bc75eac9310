package dev.sluice.cli.demo;

import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.load.LoadGenerator;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.SecondStats;
import dev.sluice.cli.report.HtmlReport;
import dev.sluice.cli.report.JsonSummary;
import dev.sluice.cli.report.RunInfo;
import dev.sluice.cli.server.ConcurrencyDelay;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice demo}: three saturable servers leasing their capacity, a least-loaded proxy in front, and an
 * open-loop client at 1000 requests/s, over real TCP on loopback in this process — once per lease size.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs the lease demo: 3 saturable servers behind a least-loaded proxy, a client sending"
        + " --rps requests/s through it, once per scenario: fixed leases of 9999, 100 and 30 per server per second,"
        + " then adaptive leases sized to keep --target-latency, with equal servers, with one server twice as slow,"
        + " with one slowing down mid-run, and with no target given. Prints each second as it goes, then the result"
        + " table next to the published one, and writes a self-contained HTML report with charts per scenario.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--duration", defaultValue = "20s", converter = DurationConverter.class,
        description = "how long each scenario sends (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--rps", defaultValue = "1000", description = "client rate, requests/s (default: ${DEFAULT-VALUE})")
    int rps;

    @Option(names = "--leases",
        defaultValue = "9999,100,30,adaptive,adaptive-slow-server,adaptive-slowdown,adaptive-no-target",
        split = ",", description = "scenarios to run: fixed leases per server per second, and "
            + Scenario.ADAPTIVE_TOKENS + " (default: ${DEFAULT-VALUE})")
    List<String> leases;

    @Option(names = "--target-latency", defaultValue = "20ms", converter = DurationConverter.class,
        description = "the latency adaptive leases keep responses within (default: ${DEFAULT-VALUE})")
    Duration targetLatency;

    @Option(names = "--warmup", defaultValue = "5s", converter = DurationConverter.class,
        description = "a first, unreported run that warms the JIT up (0s to skip; default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--report", defaultValue = "sluice-demo-report.html",
        description = "where to write the HTML report (default: ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--json", description = "print a summary of every scenario as one JSON object (fields:"
        + " docs/cli.md) instead of the progress lines and tables; the HTML report is still written")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        RunInfo info = RunInfo.now(spec.commandLine().getParseResult().originalArgs());
        List<Scenario> scenarios = validate();
        // The balancer reports each target it connects to and loses; here that happens by design at every
        // scenario's start and end, and would bury the demo's own progress lines. Warnings still show.
        System.setProperty("org.slf4j.simpleLogger.log.dev.sluice.loadbalance", "warn");
        PrintWriter console = spec.commandLine().getOut();
        // With --json, stdout carries the JSON object alone, so that it can be piped into a parser.
        PrintWriter out = json ? new PrintWriter(Writer.nullWriter()) : console;
        out.printf(Locale.ROOT, "sluice demo: 3 servers + proxy + client on 127.0.0.1, %d requests/s, %s per"
            + " scenario, scenarios %s%n", rps, human(duration), leases);
        ScenarioRunner runner = new ScenarioRunner(rps, targetLatency);
        if (!warmup.isZero()) {
            out.printf(Locale.ROOT, "warming up for %s (not reported)...%n", human(warmup));
            runner.run(new Scenario(100, false, false, false), warmup, s -> { });
        }
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            out.printf(Locale.ROOT, "%n== scenario: %s ==%n", describe(scenario));
            ScenarioResult result = runner.run(scenario, duration, s -> out.println(progressLine(s)));
            results.add(result);
            LoadSummary summary = result.summary();
            out.printf(Locale.ROOT, "   sent %d: %d answered, %d rejected, %d failed; p99 %s%n", summary.sent(),
                summary.successes(), summary.rejected(), summary.failed(),
                DemoTable.millis(summary.successLatency().p99Micros()));
            out.flush();
        }
        out.println();
        out.print(DemoTable.render(results));
        HtmlReport html = HtmlReport.titled("Sluice lease demo").run(info).scenarioHeader("scenario")
            .note("Three saturable servers (delay table '" + ConcurrencyDelay.DEFAULT + "' ms per request of the"
                + " current second) behind a least-loaded proxy; an open-loop client sends " + rps
                + " requests/s through it for " + human(duration) + " per scenario, over TCP on 127.0.0.1."
                + " Latency is measured from each request's intended send time.")
            .note("Adaptive scenarios: each server leases a rate sized by CUBIC to keep its responses within "
                + human(targetLatency) + " (sluice server --lease adaptive --target-latency " + human(targetLatency)
                + "); 'one server 2x slower' doubles the last server's delays all along, 'mid-run' from half the"
                + " duration to all of it, in a run half again as long as the others; 'no target latency'"
                + " leaves each server to estimate its own target, twice the p99 it usually answers in.")
            .note("Published with the design: lease 9999 → p99 4877 ms, 974 accepted/s, 0 rejected; lease 100 →"
                + " 19 ms, 300/s, 700 rejected; lease 30 → 4 ms, 90/s, 910 rejected.");
        for (ScenarioResult r : results) {
            html.scenario(r.scenario().name(), r.summary(), r.servers());
        }
        Path written = html.write(report);
        out.println();
        out.println("report: " + written.toAbsolutePath());
        out.flush();
        if (json) {
            List<JsonSummary.DemoScenario> runs = new ArrayList<>();
            results.forEach(r -> runs.add(new JsonSummary.DemoScenario(r.scenario().name(),
                r.scenario().leaseAllowed(), r.summary())));
            console.println(JsonSummary.demo(info, runs, written));
            console.flush();
        }
        return 0;
    }

    private String describe(Scenario s) {
        if (!s.adaptive()) {
            return "each server leases " + s.leaseAllowed() + " requests/s";
        }
        return s.name() + ": each server leases what keeps its responses within " + (s.noTarget()
            ? "twice its usual p99" : human(targetLatency));
    }

    private List<Scenario> validate() {
        if (rps <= 0 || rps > LoadGenerator.MAX_RATE) {
            throw new ParameterException(spec.commandLine(), "--rps must be between 1 and " + LoadGenerator.MAX_RATE
                + ", got " + rps);
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--duration must be > 0, got " + human(duration));
        }
        if (warmup.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--warmup must be >= 0, got " + human(warmup));
        }
        if (targetLatency.isZero() || targetLatency.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--target-latency must be > 0, got "
                + human(targetLatency));
        }
        List<Scenario> scenarios = new ArrayList<>();
        for (String token : leases) {
            try {
                scenarios.add(Scenario.parse(token));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return scenarios;
    }

    private static String progressLine(SecondStats s) {
        return String.format(Locale.ROOT, "   %3ds  sent %4d  answered %4d  rejected %4d  failed %d  p99 %-9s %s",
            s.second() + 1, s.sent(), s.responses(), s.rejected(), s.failed(),
            s.responseLatency().isEmpty() ? "-" : DemoTable.millis(s.responseLatency().p99Micros()),
            s.responsesByServer().values());
    }

    static String human(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
