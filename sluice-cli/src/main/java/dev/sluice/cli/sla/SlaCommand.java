package dev.sluice.cli.sla;

import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.RateLimitOptions;
import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadGenerator;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.load.StepStats;
import dev.sluice.cli.load.StepTable;
import dev.sluice.cli.report.JsonSummary;
import dev.sluice.cli.report.RunInfo;
import dev.sluice.cli.report.SlaReport;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.limits.RateLimiter;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * {@code sluice sla}: the SLA scenario, measured. An upstream of a few workers with a queue ({@link
 * WorkerPoolService}), callers that give up 500 ms after a request's intended send time, and a ramp of offered
 * load through its capacity — run twice in this process over TCP on loopback: without a rate limiter, then with
 * one ({@link RateLimitGate} before the upstream, reservations with a maximum wait).
 *
 * <p>Where the timeout is applied: at the requester ({@link LoadGenerator}), measured from the intended send time,
 * which is what a caller with a deadline sees; a request not answered by then counts as a failure and is cancelled,
 * and the upstream drops it from its queue if it is still there (a call in service runs to its end). The limiter
 * is in the upstream's own responder, before its handler, as {@code sluice server --rate-limit} puts it.
 */
@Command(name = "sla", mixinStandardHelpOptions = true,
    description = "Runs the SLA scenario: an upstream of --upstream-concurrency workers taking --upstream-latency"
        + " per call, with a queue beyond that; a client offering --from to --to requests/s by --step, each for"
        + " --step-duration, whose requests fail when not answered within --timeout of their intended send time."
        + " Runs it twice over TCP on 127.0.0.1: without a rate limiter, then with one (--rate-limit, --burst,"
        + " --max-wait) before the upstream. Prints each step as it ends, a table per run and the headline"
        + " figures, and writes a self-contained HTML report with the charts.")
public final class SlaCommand implements Callable<Integer> {

    /** Seeds the upstream's service times, so that the two runs see the same sequence of them. */
    private static final long SEED = 20261121L;
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);

    @Option(names = "--from", defaultValue = "100", description = "the first step's offered load, requests/s"
        + " (default: ${DEFAULT-VALUE})")
    int from;

    @Option(names = "--to", defaultValue = "600", description = "the last step's offered load, requests/s"
        + " (default: ${DEFAULT-VALUE})")
    int to;

    @Option(names = "--step", defaultValue = "50", description = "what each step adds, requests/s"
        + " (default: ${DEFAULT-VALUE})")
    int step;

    @Option(names = "--step-duration", defaultValue = "5s", converter = DurationConverter.class,
        description = "how long each step sends (default: ${DEFAULT-VALUE}: with the other defaults the command"
            + " takes about 2 minutes)")
    Duration stepDuration;

    @Option(names = "--timeout", defaultValue = "500ms", converter = DurationConverter.class,
        description = "a request not answered within this time of its intended send time fails (it is cancelled)"
            + " (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--rate-limit", defaultValue = "425/s",
        description = "the limiter's rate, as for sluice server (default: ${DEFAULT-VALUE})")
    String rate;

    @Option(names = "--burst", defaultValue = "10", description = "the limiter's bucket size (default:"
        + " ${DEFAULT-VALUE})")
    int burst;

    @Option(names = "--max-wait", defaultValue = "75ms", converter = DurationConverter.class,
        description = "how long a request may wait for its token; one that cannot get it in time is rejected at once"
            + " (default: ${DEFAULT-VALUE})")
    Duration maxWait;

    @Option(names = "--upstream-concurrency", defaultValue = "10",
        description = "calls the upstream serves at once; the rest queue (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--upstream-latency", defaultValue = "20ms..25ms",
        description = "how long the upstream takes per call: MIN..MAX (uniform) or one duration (default:"
            + " ${DEFAULT-VALUE}, a mean of 22.5 ms: 10 workers serve about 444 calls/s, a little above the"
            + " default limit; with 25ms, 400/s, the limit would exceed the capacity and its queue grow too)")
    String latency;

    @Option(names = "--warmup", defaultValue = "3s", converter = DurationConverter.class,
        description = "a first, unreported run at --to requests/s that warms the JIT up (0s to skip; default:"
            + " ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--report", defaultValue = "sla-report.html",
        description = "where to write the HTML report (default: ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--json", description = "print a summary of both runs as one JSON object (fields:"
        + " docs/cli.md) instead of the progress lines and tables; the HTML report is still written")
    boolean json;

    @Spec
    CommandSpec spec;

    private double perSecond;
    private long minNanos;
    private long maxNanos;

    @Override
    public Integer call() throws Exception {
        long began = System.nanoTime();
        RunInfo info = RunInfo.now(spec.commandLine().getParseResult().originalArgs());
        Ramp ramp = validate();
        PrintWriter console = spec.commandLine().getOut();
        // With --json, stdout carries the JSON object alone, so that it can be piped into a parser.
        PrintWriter out = json ? new PrintWriter(Writer.nullWriter()) : console;
        double capacity = WorkerPoolService.capacity(concurrency, minNanos, maxNanos);
        Duration planned = ramp.duration().multipliedBy(2).plus(warmup).plus(timeout.multipliedBy(3));
        out.printf(Locale.ROOT, "sluice sla: an upstream of %d workers taking %s per call (about %.0f calls/s),"
                + " requests failing %s after their intended send time; offered load %d to %d requests/s by %d, %s"
                + " per step; run without, then with a rate limiter of %s (burst %d, max wait %s). About %s.%n",
            concurrency, latency, capacity, human(timeout), from, to, step, human(stepDuration), rate, burst,
            human(maxWait), human(planned));
        out.flush();
        if (!warmup.isZero()) {
            out.printf(Locale.ROOT, "warming up for %s at %d requests/s with the limiter (not reported)...%n",
                human(warmup), to);
            out.flush();
            run(true, Ramp.constant(to, warmup), s -> { });
        }
        Consumer<StepStats> progress = s -> {
            out.println("   " + StepTable.progress(s));
            out.flush();
        };
        String limiter = "the rate limiter " + rate + ", burst " + burst + ", max wait " + human(maxWait);
        out.printf(Locale.ROOT, "%n== without the rate limiter ==%n");
        LoadSummary unlimited = run(false, ramp, progress);
        out.printf(Locale.ROOT, "%n== with %s ==%n", limiter);
        LoadSummary limited = run(true, ramp, progress);

        out.printf(Locale.ROOT, "%nwithout the rate limiter:%n%s%nwith %s:%n%s%n", StepTable.table(unlimited),
            limiter, StepTable.table(limited));
        String rejection = rejectionHeadline(limited);
        String success = successHeadline(unlimited, limited);
        out.println(rejection);
        out.println(success);
        Path written = SlaReport.titled("Sluice SLA scenario: a rate limiter in front of a saturable upstream")
            .run(info)
            .note(String.format(Locale.ROOT, "An upstream of %d workers taking %s per call (uniformly; about %.0f"
                    + " calls/s), with an unbounded queue beyond that; an open-loop client offers %d to %d requests/s"
                    + " by %d, %s per step, over TCP on 127.0.0.1. A request not answered within %s of its intended"
                    + " send time fails, and is cancelled (the upstream drops it from its queue).", concurrency,
                latency, capacity, from, to, step, human(stepDuration), human(timeout)))
            .note("Run twice: without a rate limiter, then with " + limiter + " in the upstream's responder: a"
                + " request that cannot have its token within the maximum wait is rejected at once (ERROR[REJECTED]"
                + " rate_limited), from the reservation, without waiting.")
            .headline(rejection).headline(success)
            .withoutLimiter("no limiter", unlimited).withLimiter("limiter " + rate, limited)
            .write(report);
        out.println("report: " + written.toAbsolutePath());
        out.println("took " + human(Duration.ofNanos(System.nanoTime() - began)));
        out.flush();
        if (json) {
            console.println(JsonSummary.sla(info, unlimited, limited, written));
            console.flush();
        }
        return 0;
    }

    /** Checks the options (usage errors, exit code 2) and returns the ramp they describe. */
    private Ramp validate() {
        check(from >= 1 && to <= LoadGenerator.MAX_RATE && from <= to, "--from and --to must satisfy 1 <= --from <="
            + " --to <= " + LoadGenerator.MAX_RATE + ", got --from " + from + " --to " + to);
        check(step >= 1, "--step must be >= 1, got " + step);
        check((to - from) % step == 0, "--to minus --from must be a multiple of --step, got --from " + from + " --to "
            + to + " --step " + step);
        check((to - from) / step < Ramp.MAX_STEPS, "at most " + Ramp.MAX_STEPS + " steps, got --from " + from
            + " --to " + to + " --step " + step);
        check(positive(stepDuration), "--step-duration must be > 0, got " + human(stepDuration));
        check(positive(timeout), "--timeout must be > 0, got " + human(timeout));
        check(burst >= 1, "--burst must be >= 1, got " + burst);
        check(!maxWait.isNegative(), "--max-wait must be >= 0, got " + human(maxWait));
        check(concurrency >= 1, "--upstream-concurrency must be >= 1, got " + concurrency);
        check(!warmup.isNegative(), "--warmup must be >= 0, got " + human(warmup));
        try {
            perSecond = RateLimitOptions.parseRate(rate);
            parseLatency(latency);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return new Ramp(from, to, step, stepDuration);
    }

    /** Reads {@code MIN..MAX} or a single duration into {@link #minNanos} and {@link #maxNanos}. */
    private void parseLatency(String text) {
        String[] parts = text.split("\\.\\.", -1);
        String form = "--upstream-latency must be MIN..MAX or one duration, e.g. 20ms..25ms, got '" + text + "'";
        if (parts.length > 2) {
            throw new IllegalArgumentException(form);
        }
        try {
            minNanos = DurationConverter.parse(parts[0]).toNanos();
            maxNanos = parts.length == 1 ? minNanos : DurationConverter.parse(parts[1]).toNanos();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(form);
        }
        if (minNanos < 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("--upstream-latency must have 0 <= MIN <= MAX, got '" + text + "'");
        }
    }

    /**
     * One run: a fresh upstream (behind the limiter if {@code limited}), a connection to it, the ramp; everything
     * is closed before it returns.
     */
    private LoadSummary run(boolean limited, Ramp ramp, Consumer<StepStats> progress) {
        Scheduler timer = Schedulers.newSingle("sluice-sla-upstream", true);
        CloseableServer server = null;
        Connection client = null;
        try {
            SocketAcceptor acceptor = SocketAcceptor.with(new WorkerPoolService(concurrency, minNanos, maxNanos,
                timer, SEED));
            if (limited) {
                RateLimitGate gate = RateLimitGate.of(RateLimiter.create(perSecond, burst), maxWait);
                acceptor = RequestGate.protect(acceptor, c -> gate);
            }
            server = RSocketServer.create(acceptor).bind(TcpServerTransport.create("127.0.0.1", 0))
                .block(SETUP_TIMEOUT);
            client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", server.port()))
                .block(SETUP_TIMEOUT);
            return LoadGenerator.create(client).ramp(ramp).timeout(timeout).onStep(progress).run();
        } finally {
            if (client != null) {
                client.dispose();
            }
            if (server != null) {
                server.dispose();
            }
            timer.dispose();
        }
    }

    private String rejectionHeadline(LoadSummary limited) {
        Latency l = limited.rejectionLatency();
        if (l.isEmpty()) {
            return "rejection latency p99 with the limiter: none, nothing was rejected";
        }
        return "rejection latency p99 with the limiter: " + Latency.format(l.p99Micros()) + " (target < 1 ms; "
            + l.count() + " rejections, max " + Latency.format(l.maxMicros()) + ")";
    }

    private String successHeadline(LoadSummary unlimited, LoadSummary limited) {
        StepStats with = limited.atRate(to);
        StepStats without = unlimited.atRate(to);
        String head = "success p95 at " + to + " requests/s with the limiter: ";
        if (with == null || with.successLatency().isEmpty()) {
            return head + "none, nothing succeeded";
        }
        return head + Latency.format(with.successLatency().p95Micros()) + String.format(Locale.ROOT,
            " (%.1f %% of requests succeeded; without the limiter %s)", 100 * with.successRatio(),
            without == null ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * without.successRatio()));
    }

    private void check(boolean condition, String message) {
        if (!condition) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    private static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }

    /** 5s, 75ms, 2m 10s: as the options are written. */
    static String human(Duration d) {
        if (d.toMillis() < 1000 || d.toMillis() % 1000 != 0 && d.toMillis() < 10_000) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        return s < 60 ? s + "s" : s / 60 + "m " + s % 60 + "s";
    }
}
