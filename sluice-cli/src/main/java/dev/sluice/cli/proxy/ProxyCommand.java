package dev.sluice.cli.proxy;

import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.HostPort;
import dev.sluice.cli.MetricsOptions;
import dev.sluice.cli.RateLimitOptions;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.loadbalance.Target;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** {@code sluice proxy}: a reverse proxy that sends each request to the server with the most lease left. */
@Command(name = "proxy", mixinStandardHelpOptions = true,
    description = "Accepts RSocket clients and forwards every interaction to the server with the highest lease"
        + " availability (round-robin when all are exhausted; their REJECTED answers come back unchanged)."
        + " Leases are on between the proxy and the servers; lost servers are reconnected.")
public final class ProxyCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger("sluice.proxy");

    @Option(names = "--address", defaultValue = "127.0.0.1:7000", converter = HostPort.Converter.class,
        description = "host:port to listen on (default: ${DEFAULT-VALUE})")
    HostPort address;

    @Option(names = "--servers", required = true, split = ",", converter = HostPort.Converter.class,
        description = "the servers, host:port,host:port,...")
    List<HostPort> servers;

    @Option(names = "--drain-timeout", defaultValue = "5s", converter = DurationConverter.class,
        description = "on shutdown (Ctrl-C, SIGTERM), how long requests in flight may take to finish before their"
            + " connections are closed (default: ${DEFAULT-VALUE})")
    Duration drainTimeout = Duration.ofSeconds(5);

    @Mixin
    RateLimitOptions rateLimit = new RateLimitOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Spec
    CommandSpec spec;

    private volatile LeastLoadedBalancer balancer;

    /** A proxy with the given settings, for the demo (no command line). */
    public static ProxyCommand of(HostPort address, List<HostPort> servers) {
        ProxyCommand c = new ProxyCommand();
        c.address = address;
        c.servers = servers;
        return c;
    }

    public LeastLoadedBalancer balancer() {
        return balancer;
    }

    /** Connects to the servers and starts listening; the returned server's disposal stops the balancer too. */
    public CloseableServer start() {
        SocketAcceptor acceptor;
        try {
            if (drainTimeout.isNegative()) {
                throw new IllegalArgumentException("--drain-timeout must be >= 0, got " + drainTimeout.toMillis()
                    + "ms");
            }
            SluiceMetrics meters = metrics.start("proxy");
            if (meters != null) {
                rateLimit.observeGates(meters::gate);
            }
            // Reads the balancer when a client connects: it exists by then (it is built before binding).
            acceptor = rateLimit.protect((setup, sendingSocket) -> Mono.just(balancer));
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
        List<Target> targets = new ArrayList<>();
        for (HostPort s : servers) {
            targets.add(new Target(s.toString(), TcpClientTransport.create(s.host(), s.port())));
        }
        balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease()).build(targets);
        Disposable gauges = metrics.watch(balancer);
        CloseableServer server;
        try {
            server = metrics.apply(RSocketServer.create(acceptor))
                .bind(TcpServerTransport.create(address.toAddress())).block();
        } catch (RuntimeException e) {
            gauges.dispose();
            balancer.dispose();
            rateLimit.close();
            metrics.close();
            throw e;
        }
        server.onClose().subscribe(null, e -> balancer.dispose(), balancer::dispose);
        server.onClose().subscribe(null, e -> gauges.dispose(), gauges::dispose);
        rateLimit.closeWhen(server.onClose());
        metrics.closeWhen(server.onClose());
        return server;
    }

    @Override
    public Integer call() {
        CloseableServer running = start();
        log.info("proxy listening on {}, balancing over {}: rate limit {}, drain timeout {} ms, metrics {}",
            running.address(), servers, rateLimit.describe(), drainTimeout.toMillis(), metrics.describe());
        List<String> last = new ArrayList<>();
        Disposable watch = Flux.interval(Duration.ofSeconds(1)).subscribe(t -> {
            List<String> now = balancer.connectedTargets();
            if (!now.equals(last)) {
                last.clear();
                last.addAll(now);
                log.info("connected servers: {} of {}", now, servers.size());
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            watch.dispose();
            running.closeGracefully(drainTimeout).block(drainTimeout.plusSeconds(1));
        }, "sluice-shutdown"));
        running.onClose().block();
        return 0;
    }
}
