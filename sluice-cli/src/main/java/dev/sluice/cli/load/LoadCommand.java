package dev.sluice.cli.load;

import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ClientSecurityOptions;
import dev.sluice.cli.address.ConnectionEnd;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.cli.report.JsonSummary;
import dev.sluice.cli.report.RunInfo;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.Exceptions;

/** {@code sluice load}: an open-loop constant-rate request-response client over one RSocket connection. */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Sends --rps request-response requests per second to --target for --duration, open loop: each"
        + " request has an intended send time and is sent then whatever the answers do, and latency is measured"
        + " from that time. Prints once a second the responses per server (the response data), p99 latency and"
        + " the rejected count, then a summary. With --ramp, offers a staircase of load instead, with a --timeout"
        + " per request, and prints what became of each step's requests. Ctrl-C stops sending and prints the"
        + " summary.")
public final class LoadCommand implements Callable<Integer> {

    /** How long Ctrl-C waits for the summary. */
    private static final long SHUTDOWN_WAIT_SECONDS = 30;
    /** A ramp's request timeout unless --timeout says otherwise. */
    private static final Duration DEFAULT_RAMP_TIMEOUT = Duration.ofSeconds(1);

    @Option(names = "--target", required = true, paramLabel = "ADDRESS", converter = Address.Converter.class,
        description = "the RSocket server or proxy to load: host:port, tls://host:port, ws://host:port[/path],"
            + " unix:PATH")
    Address target;

    @Mixin
    ClientSecurityOptions security = new ClientSecurityOptions();

    @Option(names = "--rps", defaultValue = "1000",
        description = "requests per second, 1 to 10,000,000 (default: ${DEFAULT-VALUE})")
    int rps;

    @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
        description = "how long to send, e.g. 10s, 2m (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--payload-size", defaultValue = "16",
        description = "bytes of data in each request (default: ${DEFAULT-VALUE})")
    int payloadSize;

    @Option(names = "--lease", description = "ask the target for leases (the L flag in SETUP); off by default")
    boolean lease;

    @Option(names = "--drain-timeout", defaultValue = "10s", converter = DurationConverter.class,
        description = "after the last send, how long to wait for answers before counting the rest as failed"
            + " (default: ${DEFAULT-VALUE})")
    Duration drainTimeout;

    @Option(names = "--connect-timeout", defaultValue = "5s", converter = DurationConverter.class,
        description = "how long connecting may take (default: ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(names = "--ramp", paramLabel = "FROM..TO",
        description = "instead of --rps for --duration: offer FROM, FROM + --step, ... TO requests/s, each for"
            + " --step-duration, and report each step: success rate, latency of successes and failures, rejected,"
            + " timed out, failed")
    String ramp;

    @Option(names = "--step", defaultValue = "50", description = "with --ramp: what each step adds, requests/s"
        + " (default: ${DEFAULT-VALUE})")
    int step;

    @Option(names = "--step-duration", defaultValue = "5s", converter = DurationConverter.class,
        description = "with --ramp: how long each step sends (default: ${DEFAULT-VALUE})")
    Duration stepDuration;

    @Option(names = "--timeout", converter = DurationConverter.class,
        description = "with --ramp: a request not answered within this time of its intended send time fails, and"
            + " is cancelled (default: 1s)")
    Duration timeout;

    @Option(names = "--json", description = "print the summary as one JSON object (fields: docs/cli.md) instead"
        + " of the progress lines and tables")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        RunInfo info = RunInfo.now(spec.commandLine().getParseResult().originalArgs());
        Ramp plan = ramp();
        validate();
        ClientTransport transport;
        try {
            transport = security.transport("--target", target, connectTimeout);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        String warning = security.warning(target);
        if (warning != null) {
            spec.commandLine().getErr().println("sluice load: " + warning);
            spec.commandLine().getErr().flush();
        }
        PrintWriter console = spec.commandLine().getOut();
        // With --json, stdout carries the JSON object alone, so that it can be piped into a parser.
        PrintWriter out = json ? new PrintWriter(Writer.nullWriter()) : console;
        Connection connection = connect(transport);
        try {
            LoadGenerator load = LoadGenerator.create(connection).payloadSize(payloadSize);
            // A refused SETUP (a wrong token, a plaintext client at a TLS port) or a lost connection ends the run at
            // once rather than after --duration of requests that can only fail.
            connection.onClose().subscribe(null, e -> load.stop(), load::stop);
            Function<LoadSummary, String> summaryText;
            if (plan == null) {
                load.ramp(Ramp.constant(rps, duration)).drainTimeout(drainTimeout)
                    .onSecond(s -> println(out, ConsoleReport.second(s)));
                summaryText = ConsoleReport::summary;
                out.printf("sluice load: %s, %d requests/s for %s, payload %d bytes, leases %s%n", target, rps,
                    text(duration), payloadSize, lease ? "on" : "off");
            } else {
                // Every request gets its whole timeout: the generator's drain timeout defaults to it.
                Duration requestTimeout = timeout == null ? DEFAULT_RAMP_TIMEOUT : timeout;
                load.ramp(plan).timeout(requestTimeout).onStep(s -> println(out, StepTable.progress(s)));
                summaryText = StepTable::table;
                out.printf("sluice load: %s, %d to %d requests/s by %d, %s per step, timeout %s, payload %d bytes,"
                        + " leases %s%n", target, plan.from(), plan.to(), plan.step(), text(plan.stepDuration()),
                    text(requestTimeout), payloadSize, lease ? "on" : "off");
            }
            out.flush();
            LoadSummary summary = runStoppingOnShutdown(load, summaryText, out);
            String failure = connection.isDisposed() ? closed(connection, summary) : noSuccess(summary);
            if (json) {
                console.println(JsonSummary.load(info, summary, failure == null ? 0 : 1));
                console.flush();
            }
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return 0;
        } finally {
            connection.dispose();
        }
    }

    /** Why the run failed when its connection closed: the server's refusal, or the loss, and what it cost. */
    private String closed(Connection connection, LoadSummary summary) {
        Throwable cause = connection.closeCause();
        if (cause instanceof RejectedSetupException || summary.sent() == 0) {
            return ConnectionEnd.describe(target, cause);
        }
        return "the connection to " + target + " closed during the run (" + summary.failed() + " requests failed"
            + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")";
    }

    /**
     * Why a run in which no request succeeded failed (a run time failure, exit code 1: a proxy whose only server
     * is down answers every request with an error, and that run must not look like a success); null otherwise.
     */
    static String noSuccess(LoadSummary s) {
        if (s.sent() == 0 || s.successes() > 0) {
            return null;
        }
        String most = mostFrequent(s.failuresByCause().isEmpty() ? s.rejectionsByMessage() : s.failuresByCause());
        return "no request succeeded: " + s.sent() + " sent, " + s.rejected() + " rejected, " + s.timedOut()
            + " timed out, " + s.failed() + " failed" + (most == null ? "" : " (mostly: " + most + ")");
    }

    private static String mostFrequent(Map<String, Long> counts) {
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
            // "NoTargetAvailableException: no target available: ..." reads as its message.
            .map(k -> k.replaceFirst("^[A-Z]\\w*(Exception|Error): ", "")).orElse(null);
    }

    /** The ramp asked for with --ramp, or null; wrong values are usage errors. */
    private Ramp ramp() {
        if (ramp == null) {
            check(timeout == null, "--timeout needs --ramp (a constant-rate load waits for every answer up to"
                + " --drain-timeout)");
            return null;
        }
        String form = "--ramp must be FROM..TO in requests/s, e.g. 100..600, got '" + ramp + "'";
        String[] bounds = ramp.split("\\.\\.", -1);
        check(bounds.length == 2, form);
        int lo;
        int hi;
        try {
            lo = Integer.parseInt(bounds[0].trim());
            hi = Integer.parseInt(bounds[1].trim());
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), form);
        }
        check(timeout == null || !timeout.isNegative() && !timeout.isZero(),
            "--timeout must be > 0, got " + (timeout == null ? "" : text(timeout)));
        check(!stepDuration.isNegative() && !stepDuration.isZero(),
            "--step-duration must be > 0, got " + text(stepDuration));
        try {
            return new Ramp(lo, hi, step, stepDuration);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--ramp " + ramp + " --step " + step + ": "
                + e.getMessage());
        }
    }

    /** Wrong values are usage errors (exit code 2), reported before connecting. */
    private void validate() {
        check(rps >= 1 && rps <= LoadGenerator.MAX_RATE,
            "--rps must be between 1 and " + LoadGenerator.MAX_RATE + ", got " + rps);
        check(!duration.isNegative() && !duration.isZero(), "--duration must be > 0, got " + text(duration));
        check(payloadSize >= 0 && payloadSize <= LoadGenerator.MAX_PAYLOAD_SIZE,
            "--payload-size must be between 0 and " + LoadGenerator.MAX_PAYLOAD_SIZE + ", got " + payloadSize);
        check(!drainTimeout.isNegative(), "--drain-timeout must be >= 0, got " + text(drainTimeout));
        check(!connectTimeout.isNegative() && !connectTimeout.isZero()
            && connectTimeout.toMillis() <= Integer.MAX_VALUE,
            "--connect-timeout must be > 0 and < 2^31 ms, got " + text(connectTimeout));
    }

    private void check(boolean condition, String message) {
        if (!condition) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    private Connection connect(ClientTransport transport) {
        RSocketConnector connector = security.apply(RSocketConnector.create());
        if (lease) {
            // Requests without a permit are sent for the target to refuse, not held here: the load offered is the
            // load the target sees, and its refusals are what the run reports.
            connector.lease().leaseWait(0, Duration.ZERO);
        }
        try {
            return connector.connect(transport).block();
        } catch (RuntimeException e) {
            Throwable cause = Exceptions.unwrap(e);
            String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            throw new IllegalStateException(message.startsWith("cannot connect") ? message
                : "cannot connect to " + target + ": " + message, cause);
        }
    }

    /**
     * Runs the load and prints its summary; a shutdown (Ctrl-C) stops sending and waits, a bounded time, for the
     * summary to be printed.
     */
    private static LoadSummary runStoppingOnShutdown(LoadGenerator load, Function<LoadSummary, String> summaryText,
                                                     PrintWriter out) {
        CountDownLatch printed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            load.stop();
            try {
                // Bounded: a run drains for its drain timeout at most; a stuck one must not hold the JVM forever.
                printed.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sluice-load-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            LoadSummary summary = load.run();
            out.print(summaryText.apply(summary));
            out.flush();
            return summary;
        } finally {
            printed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running; it returns now that the summary is printed.
            }
        }
    }

    private static void println(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

    /** 30s, 1500ms: how the options are written. */
    private static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
