package dev.sluice.cli.demo;

import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.load.LoadGenerator;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.load.SecondStats;
import dev.sluice.cli.proxy.ProxyCommand;
import dev.sluice.cli.report.HtmlReport;
import dev.sluice.cli.report.JsonSummary;
import dev.sluice.cli.report.RunInfo;
import dev.sluice.cli.server.ConcurrencyDelay;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.transport.netty.TcpClientTransport;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
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
        + " --rps requests/s through it, once per lease size (default 9999, 100 and 30 per server per second)."
        + " Prints each second as it goes, then the result table next to the published one, and writes a"
        + " self-contained HTML report with charts per scenario.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--duration", defaultValue = "20s", converter = DurationConverter.class,
        description = "how long each scenario sends (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--rps", defaultValue = "1000", description = "client rate, requests/s (default: ${DEFAULT-VALUE})")
    int rps;

    @Option(names = "--leases", defaultValue = "9999,100,30", split = ",",
        description = "lease sizes to run, per server per second (default: ${DEFAULT-VALUE})")
    List<Integer> leases;

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
        validate();
        // The balancer reports each target it connects to and loses; here that happens by design at every
        // scenario's start and end, and would bury the demo's own progress lines. Warnings still show.
        System.setProperty("org.slf4j.simpleLogger.log.dev.sluice.loadbalance", "warn");
        PrintWriter console = spec.commandLine().getOut();
        // With --json, stdout carries the JSON object alone, so that it can be piped into a parser.
        PrintWriter out = json ? new PrintWriter(Writer.nullWriter()) : console;
        out.printf(Locale.ROOT, "sluice demo: 3 servers + proxy + client on 127.0.0.1, %d requests/s, %s per"
            + " scenario, leases %s%n", rps, human(duration), leases);
        if (!warmup.isZero()) {
            out.printf(Locale.ROOT, "warming up for %s (not reported)...%n", human(warmup));
            runScenario(100, warmup, s -> { });
        }
        List<Scenario> results = new ArrayList<>();
        for (int lease : leases) {
            out.printf(Locale.ROOT, "%n== scenario: each server leases %d requests/s ==%n", lease);
            LoadSummary summary = runScenario(lease, duration, s -> out.println(progressLine(s)));
            results.add(new Scenario(lease, summary));
            out.printf(Locale.ROOT, "   sent %d: %d answered, %d rejected, %d failed; p99 %s%n", summary.sent(),
                summary.successes(), summary.rejected(), summary.failed(),
                DemoTable.millis(summary.successLatency().p99Micros()));
            out.flush();
        }
        out.println();
        out.print(DemoTable.render(results));
        HtmlReport html = HtmlReport.titled("Sluice lease demo").run(info).scenarioHeader("leased requests")
            .note("Three saturable servers (delay table '" + ConcurrencyDelay.DEFAULT + "' ms per request of the"
                + " current second) behind a least-loaded proxy; an open-loop client sends " + rps
                + " requests/s through it for " + human(duration) + " per scenario, over TCP on 127.0.0.1."
                + " Latency is measured from each request's intended send time.")
            .note("Published with the design: lease 9999 → p99 4877 ms, 974 accepted/s, 0 rejected; lease 100 →"
                + " 19 ms, 300/s, 700 rejected; lease 30 → 4 ms, 90/s, 910 rejected.");
        for (Scenario s : results) {
            html.scenario(s.name(), s.summary());
        }
        Path written = html.write(report);
        out.println();
        out.println("report: " + written.toAbsolutePath());
        out.flush();
        if (json) {
            Map<Integer, LoadSummary> byLease = new LinkedHashMap<>();
            results.forEach(r -> byLease.put(r.leaseAllowed(), r.summary()));
            console.println(JsonSummary.demo(info, byLease, written));
            console.flush();
        }
        return 0;
    }

    private void validate() {
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
        for (int l : leases) {
            if (l < 0) {
                throw new ParameterException(spec.commandLine(), "--leases must be >= 0, got " + l);
            }
        }
    }

    /** Starts 3 servers leasing {@code lease}/s and a proxy, runs the load through it, stops everything. */
    LoadSummary runScenario(int lease, Duration sendFor, Consumer<SecondStats> progress)
        throws InterruptedException {
        List<CloseableServer> servers = new ArrayList<>();
        CloseableServer proxy = null;
        Connection client = null;
        try {
            List<Address> addresses = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                CloseableServer s = ServerCommand.of("127.0.0.1", 0, lease, Duration.ofSeconds(1)).start();
                servers.add(s);
                addresses.add(Address.tcp("127.0.0.1", s.port()));
            }
            ProxyCommand p = ProxyCommand.of(Address.tcp("127.0.0.1", 0), addresses);
            proxy = p.start();
            for (int i = 0; i < 1000 && p.balancer().connectedTargets().size() < 3; i++) {
                Thread.sleep(5);
            }
            if (p.balancer().connectedTargets().size() < 3) {
                throw new IllegalStateException("the proxy could not connect to all 3 servers: connected to "
                    + p.balancer().connectedTargets());
            }
            client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", proxy.port()))
                .block(Duration.ofSeconds(10));
            return LoadGenerator.create(client).ramp(Ramp.constant(rps, sendFor)).drainTimeout(Duration.ofSeconds(10))
                .onSecond(progress).run();
        } finally {
            if (client != null) {
                client.dispose();
            }
            if (proxy != null) {
                proxy.dispose();
            }
            servers.forEach(CloseableServer::dispose);
        }
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
