package dev.sluice.cli.proxy;

import dev.sluice.cli.DrainOptions;
import dev.sluice.cli.DurationConverter;
import dev.sluice.cli.MetricsOptions;
import dev.sluice.cli.RateLimitOptions;
import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ServerSecurityOptions;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.ServerTransport;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
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
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** {@code sluice proxy}: a reverse proxy that sends each request to the server with the most lease left. */
@Command(name = "proxy", mixinStandardHelpOptions = true,
    description = "Accepts RSocket clients and forwards every interaction to the server with the highest lease"
        + " availability (round-robin when all are exhausted; their REJECTED answers come back unchanged)."
        + " Leases are on between the proxy and the servers; lost servers are reconnected. A dns:NAME:PORT server"
        + " is every address NAME resolves to, looked up again every --dns-refresh. With --tls-cert and"
        + " --auth-token-file it terminates TLS and authentication in front of plaintext servers.")
public final class ProxyCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger("sluice.proxy");

    @Option(names = "--address", defaultValue = "127.0.0.1:7000", converter = Address.Converter.class,
        description = "where to listen: host:port, tls://host:port, ws://host:port[/path], unix:PATH (default:"
            + " ${DEFAULT-VALUE})")
    Address address;

    @Option(names = "--servers", required = true, split = ",", converter = ServerAddress.Converter.class,
        description = "the servers, host:port,host:port,... (or tls://, ws://, unix: addresses), or dns:NAME:PORT"
            + " for every address of NAME (a Kubernetes headless service, a DNS pool), mixed as you like")
    List<ServerAddress> servers;

    @Option(names = "--servers-tls-ca", paramLabel = "FILE",
        description = "trust the CAs of this PEM file for tls:// servers (default: the JDK's trusted CAs)")
    Path serversTlsCa;

    @Option(names = "--dns-refresh", defaultValue = "5s", converter = DurationConverter.class,
        description = "how often each dns:NAME is resolved again; servers that appear are added, servers that"
            + " disappear drain and are removed (default: ${DEFAULT-VALUE})")
    Duration dnsRefresh = Duration.ofSeconds(5);

    @Option(names = "--request-timeout", defaultValue = "10s", converter = DurationConverter.class,
        description = "a request-response its server has not answered within this fails, and the server is told"
            + " CANCEL: no client waits longer on a stopped or hung server (default: ${DEFAULT-VALUE})")
    Duration requestTimeout = Duration.ofSeconds(10);

    @Option(names = "--silent-after", defaultValue = "1500ms", converter = DurationConverter.class,
        description = "a server with no lease left that has answered no keep-alive for this long gets no requests"
            + " while another server can take them, until it answers again; keep-alives go every third of it"
            + " (default: ${DEFAULT-VALUE})")
    Duration silentAfter = Duration.ofMillis(1500);

    @Mixin
    ServerSecurityOptions security = new ServerSecurityOptions();

    @Mixin
    DrainOptions shutdown = new DrainOptions();

    @Mixin
    RateLimitOptions rateLimit = new RateLimitOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Spec
    CommandSpec spec;

    /** Looks up dns: servers; null for the system's DNS. Tests set it. */
    Resolver resolver;
    /** Times the dns: lookups. Tests set a virtual-time scheduler. */
    Scheduler refreshScheduler = Schedulers.parallel();

    private volatile LeastLoadedBalancer balancer;
    private Address bound;

    /** A proxy with the given settings, for the demo (no command line). */
    public static ProxyCommand of(Address address, List<Address> servers) {
        ProxyCommand c = new ProxyCommand();
        c.address = address;
        c.servers = servers.stream().map(ServerAddress::of).toList();
        return c;
    }

    public LeastLoadedBalancer balancer() {
        return balancer;
    }

    /**
     * Connects to the servers and starts listening. Disposing the returned server stops the balancer too; closing
     * it gracefully stops the balancer once the clients' requests have drained.
     */
    public CloseableServer start() {
        SocketAcceptor acceptor;
        ServerTransport transport;
        Function<Address, ClientTransport> serverTransports;
        try {
            shutdown.check();
            transport = security.transport("--address", address, null);
            serverTransports = ServerTransports.of(servers, serversTlsCa);
            if (dnsRefresh.isNegative() || dnsRefresh.isZero()) {
                throw new IllegalArgumentException("--dns-refresh must be > 0, got " + dnsRefresh.toMillis() + "ms");
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("--request-timeout must be > 0, got " + requestTimeout.toMillis()
                    + "ms");
            }
            if (silentAfter.toMillis() < 3) {
                throw new IllegalArgumentException("--silent-after must be at least 3ms, got " + silentAfter.toMillis()
                    + "ms");
            }
            SluiceMetrics meters = metrics.start("proxy");
            if (meters != null) {
                rateLimit.observeGates(meters::gate);
            }
            // Reads the balancer when a client connects: it exists by then (it is built before binding).
            acceptor = rateLimit.protect((setup, sendingSocket) -> Mono.just(new TimedRequests(balancer,
                requestTimeout)));
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
        // The system's resolver is made only for dns: servers, and closed with the proxy; an injected one is not ours.
        DnsResolver own = resolver == null && servers.stream().anyMatch(ServerAddress::dns) ? DnsResolver.system()
            : null;
        ServerDiscovery discovery = new ServerDiscovery(servers, dnsRefresh, own != null ? own : resolver,
            refreshScheduler, serverTransports);
        // Fixed servers are applied before build returns; each dns: name once its first lookup answers.
        // Without a lease permit anywhere a request still goes to a server, which refuses it at once: the demo's
        // accounting counts those refusals, and a request held back here for the next lease would come late.
        // Keep-alives every third of --silent-after tell a stopped server from a busy one; a connection is given up
        // only after the default 90 s without any, so a server that resumes (SIGCONT) is back on the same one.
        RSocketConnector connector = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .keepAlive(silentAfter.dividedBy(3), Duration.ofSeconds(90));
        balancer = LeastLoadedBalancer.builder(connector).silentAfter(silentAfter).build(discovery.targets());
        Disposable gauges = metrics.watch(balancer);
        Runnable stop = () -> {
            gauges.dispose();
            balancer.dispose(); // cancels the lookups first
            if (own != null) {
                own.dispose();
            }
        };
        CloseableServer server;
        try {
            // Authentication ends here: the servers behind see every client as the proxy.
            server = security.apply(metrics.apply(RSocketServer.create(acceptor))).bind(transport).block();
        } catch (RuntimeException e) {
            stop.run();
            rateLimit.close();
            metrics.close();
            throw e;
        }
        bound = server.address() instanceof InetSocketAddress a ? address.withPort(a.getPort()) : address;
        ProxyServer proxy = new ProxyServer(server, stop);
        rateLimit.closeWhen(server.onClose());
        metrics.closeWhen(server.onClose());
        return proxy;
    }

    @Override
    public Integer call() {
        CloseableServer running = start();
        String warning = security.warning(address);
        if (warning != null) {
            log.warn(warning);
        }
        log.info("proxy listening on {} {}, balancing over {}{}: request timeout {} ms, silent after {} ms, rate limit"
            + " {}, drain timeout {} ms, metrics {}", bound, security.describe(bound), servers,
            servers.stream().anyMatch(ServerAddress::dns) ? " (dns refresh " + dnsRefresh.toMillis() + " ms)" : "",
            requestTimeout.toMillis(), silentAfter.toMillis(), rateLimit.describe(), shutdown.timeout().toMillis(),
            metrics.describe());
        List<String> last = new ArrayList<>();
        Disposable watch = Flux.interval(Duration.ofSeconds(1)).subscribe(t -> {
            List<String> now = balancer.connectedTargets();
            if (!now.equals(last)) {
                last.clear();
                last.addAll(now);
                log.info("connected servers: {} of {}", now, balancer.availabilityByTarget().size());
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            watch.dispose();
            shutdown.drain(running, log);
        }, "sluice-shutdown"));
        running.onClose().block();
        return 0;
    }
}
