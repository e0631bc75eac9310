package dev.sluice.cli.server;

import dev.sluice.cli.DrainOptions;
import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.MetricsOptions;
import dev.sluice.cli.RateLimitOptions;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ServerSecurityOptions;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Leases;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SharedLeases;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.core.transport.ServerTransport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.publisher.Flux;

/** {@code sluice server}: the saturable demo service, leasing its capacity. */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Serves the saturable demo service: request-response answers with this server's address after"
        + " a delay that grows with the requests received in the current second (--concurrency-delay). With"
        + " --lease-allowed it leases that many requests per --lease-ttl to each client and rejects the rest"
        + " before they reach the service; with --lease adaptive each client's lease is sized from the latency"
        + " this server measures (--lease-limit, --target-latency). Logs accepted, rejected, p99 latency and the"
        + " lease each second, and with adaptive leases the limit.")
public final class ServerCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger("sluice.server");

    @Option(names = "--address", defaultValue = "127.0.0.1:7001", converter = Address.Converter.class,
        description = "where to listen: host:port, tls://host:port, ws://host:port[/path], unix:PATH (default:"
            + " ${DEFAULT-VALUE})")
    Address address;

    @Option(names = "--lease-allowed", defaultValue = "${env:ALLOWED_REQUESTS}",
        description = "requests leased per --lease-ttl to all clients together, split by what each used (env"
            + " ALLOWED_REQUESTS; default: no leases)")
    Integer leaseAllowed;

    @Option(names = "--lease-ttl", defaultValue = "1s", converter = DurationConverter.class,
        description = "lease duration and re-issue interval (default: ${DEFAULT-VALUE})")
    Duration leaseTtl;

    @Option(names = "--lease", paramLabel = "MODE",
        description = "adaptive: lease each client what the latency this server measures allows, sized by"
            + " --lease-limit (default: the fixed lease of --lease-allowed, or no leases without it)")
    String leaseMode;

    @Option(names = "--lease-limit", paramLabel = "ALGORITHM", converter = LeaseLimit.Converter.class,
        completionCandidates = LeaseLimit.Candidates.class,
        description = "with --lease adaptive: the limit that sizes the leases: cubic (requests per second), or aimd,"
            + " vegas, gradient2 (requests in flight) (default: cubic)")
    LeaseLimit leaseLimit;

    @Option(names = "--target-latency", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "with --lease adaptive: a response slower than this shrinks the lease (default: none: twice"
            + " the p99 this server usually answers in, with cubic; what the limit judges by itself, with the others)")
    Duration targetLatency;

    @Option(names = "--concurrency-delay",
        defaultValue = "${env:CONCURRENCY_DELAY:-" + ConcurrencyDelay.DEFAULT + "}",
        description = "latency table 'N => MILLIS; ...; => MILLIS' (env CONCURRENCY_DELAY; default:"
            + " '${DEFAULT-VALUE}')")
    String concurrencyDelay;

    @Mixin
    ServerSecurityOptions security = new ServerSecurityOptions();

    @Mixin
    DrainOptions shutdown = new DrainOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Mixin
    RateLimitOptions rateLimit = new RateLimitOptions();

    @Spec
    CommandSpec spec;

    private ServerStats stats;
    private SaturableService service;
    private AdaptiveServerLeases adaptiveLeases;
    private Address bound;

    /** A server with the given settings, for the demo (no command line). */
    public static ServerCommand of(String host, int port, Integer leaseAllowed, Duration leaseTtl) {
        ServerCommand c = new ServerCommand();
        c.address = Address.tcp(host, port);
        c.leaseAllowed = leaseAllowed;
        c.leaseTtl = leaseTtl;
        c.concurrencyDelay = ConcurrencyDelay.DEFAULT;
        return c;
    }

    /**
     * A server leasing adaptively, each client a rate sized by CUBIC to keep responses within {@code target} (null:
     * one it estimates from its own latency), for the demo (no command line).
     */
    public static ServerCommand adaptive(String host, int port, Duration target) {
        ServerCommand c = of(host, port, null, Duration.ofSeconds(1));
        c.leaseMode = "adaptive";
        c.targetLatency = target;
        return c;
    }

    /** What this server's responders did (available after {@link #start()}). */
    public ServerStats stats() {
        return stats;
    }

    /** The service this server runs (available after {@link #start()}). */
    public SaturableService service() {
        return service;
    }

    /** Validates the options and starts the server; the caller owns the returned server. */
    public CloseableServer start() {
        ConcurrencyDelay delays;
        ServerTransport transport;
        try {
            delays = ConcurrencyDelay.parse(concurrencyDelay);
            if (leaseAllowed != null && leaseAllowed < 0) {
                throw new IllegalArgumentException("--lease-allowed must be >= 0, got " + leaseAllowed);
            }
            if (leaseTtl.isNegative() || leaseTtl.isZero() || leaseTtl.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--lease-ttl must be between 1ms and 2^31-1 ms, got "
                    + leaseTtl.toMillis() + "ms");
            }
            checkAdaptiveLease();
            shutdown.check();
            transport = security.transport("--address", address, null);
        } catch (IllegalArgumentException e) {
            if (spec == null) {
                throw e;
            }
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        stats = new ServerStats();
        LeaseLimit algorithm = leaseLimit != null ? leaseLimit : LeaseLimit.CUBIC;
        adaptiveLeases = adaptive() ? new AdaptiveServerLeases(algorithm, targetLatency, stats) : null;
        if (adaptiveLeases != null) {
            stats.adaptive(algorithm.toString());
        }
        service = new SaturableService(delays, address.hostPort(), System::nanoTime);
        SluiceMetrics meters = metrics.start("server");
        if (meters != null) {
            rateLimit.observeGates(meters::gate);
        }
        SocketAcceptor acceptor;
        try {
            // Outside the rate limit, so that its refusals are counted as rejected; the lease's are reported by
            // the engine (ServerStats says how the two add up).
            acceptor = CountingRSocket.counting(rateLimit.protect(SocketAcceptor.with(service)), stats);
        } catch (IllegalArgumentException e) {
            metrics.close();
            if (spec == null) {
                throw e;
            }
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        RSocketServer server = security.apply(metrics.apply(RSocketServer.create(acceptor)));
        SharedLeases shared = null;
        if (leaseAllowed != null) {
            // One capacity for all clients together (two proxies in front do not double the load). The first
            // client's lease goes out at once; the next ones when the service's one-second windows start, so that a
            // lease's requests never straddle two windows (which would count up to twice the lease in one).
            SharedLeases capacity = SharedLeases.of(leaseAllowed, leaseTtl,
                () -> Duration.ofNanos(service.nanosToNextWindow()));
            shared = capacity;
            server.lease(scheduler -> {
                SharedLeases.Share share = capacity.join();
                return Leases.of(new LoggedRecorder(stats, share), r -> share.leases()
                    .doOnNext(l -> stats.leaseSent(l.allowedRequests(), l.ttl().toMillis())));
            });
        } else if (adaptiveLeases != null) {
            server.lease(adaptiveLeases.configurer());
        }
        CloseableServer running;
        try {
            running = server.bind(transport).block();
        } catch (RuntimeException e) {
            if (shared != null) {
                shared.dispose();
            }
            rateLimit.close();
            metrics.close();
            throw e;
        }
        rateLimit.closeWhen(running.onClose());
        metrics.closeWhen(running.onClose());
        if (shared != null) {
            SharedLeases stop = shared;
            running.onClose().subscribe(null, e -> stop.dispose(), stop::dispose);
        }
        bound = running.address() instanceof InetSocketAddress a ? address.withPort(a.getPort()) : address;
        service.answerWith(bound.hostPort());
        return running;
    }

    @Override
    public Integer call() {
        CloseableServer running = start();
        String warning = security.warning(address);
        if (warning != null) {
            log.warn(warning);
        }
        log.info("server listening on {} {}: leases {}, rate limit {}, concurrency delay '{}', drain timeout {} ms,"
            + " metrics {}", bound, security.describe(bound),
            adaptiveLeases != null ? adaptiveLeases.describe()
                : leaseAllowed == null ? "off" : leaseAllowed + " requests / " + leaseTtl.toMillis() + " ms",
            rateLimit.describe(), concurrencyDelay, shutdown.timeout().toMillis(), metrics.describe());
        Flux.interval(Duration.ofSeconds(1)).subscribe(t -> log.info(stats.sinceLastCall()));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> drain(running), "sluice-shutdown"));
        running.onClose().block();
        return 0;
    }

    private boolean adaptive() {
        return leaseMode != null;
    }

    /** The adaptive lease's options: only with {@code --lease adaptive}, which excludes the fixed lease's. */
    private void checkAdaptiveLease() {
        if (leaseMode != null && !leaseMode.trim().equalsIgnoreCase("adaptive")) {
            throw new IllegalArgumentException("--lease must be adaptive (a fixed lease is --lease-allowed N), got '"
                + leaseMode + "'");
        }
        if (adaptive()) {
            if (leaseAllowed != null) {
                throw new IllegalArgumentException("--lease adaptive sizes each lease itself: drop --lease-allowed"
                    + " (or the environment's ALLOWED_REQUESTS)");
            }
            if (spec != null && spec.commandLine().getParseResult().hasMatchedOption("--lease-ttl")) {
                throw new IllegalArgumentException("--lease adaptive sets each lease's ttl from the latency it"
                    + " measures: drop --lease-ttl");
            }
            if (targetLatency != null && (targetLatency.isNegative() || targetLatency.isZero())) {
                throw new IllegalArgumentException("--target-latency must be > 0, got " + targetLatency.toMillis()
                    + "ms");
            }
        } else if (leaseLimit != null || targetLatency != null) {
            throw new IllegalArgumentException((leaseLimit != null ? "--lease-limit" : "--target-latency")
                + " applies to adaptive leases only: add --lease adaptive");
        }
    }

    /** What the shutdown hook does: says so, then closes gracefully, waiting up to {@code --drain-timeout}. */
    void drain(CloseableServer running) {
        shutdown.drain(running, log);
    }
}
