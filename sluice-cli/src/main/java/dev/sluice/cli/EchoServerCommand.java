package dev.sluice.cli;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ServerSecurityOptions;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import dev.sluice.transport.netty.WebsocketServerTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.publisher.Flux;

/** {@code sluice echo-server}: a test service for people and other RSocket implementations to talk to. */
@Command(name = "echo-server", mixinStandardHelpOptions = true,
    description = "Serves the echo test service over RSocket until interrupted: request-response echoes"
        + " data and metadata; request-stream repeats the request payload until cancelled (or --stream-count"
        + " times); request-channel echoes every inbound payload; fire-and-forget and metadata-push are counted"
        + " and logged. Requests routed by composite metadata go to the RPC service sluice.echo.v1.Echo"
        + " (Say, Repeat, Collect, Chat; Say with text fail:CODE:message fails with that status); with"
        + " --grpc-address, gRPC clients reach the same service.")
final class EchoServerCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger("sluice.echo-server");

    @Option(names = "--address", defaultValue = "127.0.0.1:7878", converter = Address.Converter.class,
        description = "where to listen: host:port, tls://host:port, ws://host:port[/path], unix:PATH (default:"
            + " ${DEFAULT-VALUE}; port 0 picks a free one)")
    Address address;

    @Option(names = "--grpc-address", paramLabel = "HOST:PORT", converter = HostPort.Converter.class,
        description = "also serve the RPC service sluice.echo.v1.Echo to gRPC clients here (plaintext HTTP/2, with"
            + " server reflection and the health service; port 0 picks a free one)")
    HostPort grpcAddress;

    @Option(names = "--mtu", defaultValue = "0",
        description = "fragment frames larger than this many bytes (0 = no fragmentation, else >= 64)")
    int mtu;

    @Option(names = "--stream-count", description = "elements per request-stream (default: until cancelled)")
    Long streamCount;

    @Option(names = "--backlog", description = "accept backlog (default: the kernel's net.core.somaxconn)")
    Integer backlog;

    @Option(names = "--lease-allowed", description = "serve leases: this many requests per --lease-ttl per"
        + " connection; requests beyond them are rejected (REJECTED lease_exhausted / lease_expired)")
    Integer leaseAllowed;

    @Option(names = "--lease-ttl", defaultValue = "1s", converter = DurationConverter.class,
        description = "how long each lease lasts, and how often a new one is sent (default: ${DEFAULT-VALUE})")
    Duration leaseTtl;

    @Mixin
    ServerSecurityOptions security = new ServerSecurityOptions();

    @Mixin
    DrainOptions shutdown = new DrainOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    LeaseLog leaseLog;

    GrpcEndpoint grpc;

    @Spec
    CommandSpec spec;

    final EchoService service = new EchoService(Long.MAX_VALUE);

    /** Validates the options and starts the server; the caller owns the returned server. */
    CloseableServer start() {
        if (streamCount != null && streamCount < 0) {
            throw new ParameterException(spec.commandLine(), "--stream-count must be >= 0, got " + streamCount);
        }
        try {
            shutdown.check();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        service.streamCount(streamCount == null ? Long.MAX_VALUE : streamCount);
        // RPC clients (a routing entry in composite metadata) reach the Echo RPC service; every other request the
        // raw echo service, as before.
        RpcService echo = EchoRpc.bind(new RealEchoService());
        RpcRouter rpc = RpcRouter.of(echo).orElse(service);
        RSocketServer server = RSocketServer.create(SocketAcceptor.with(rpc));
        try {
            server.fragment(mtu);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), OptionMessage.of("--mtu", e.getMessage()));
        }
        if (backlog != null && backlog <= 0) {
            throw new ParameterException(spec.commandLine(), "--backlog must be > 0, got " + backlog);
        }
        ServerTransport transport;
        try {
            transport = security.transport("--address", address, backlog);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (transport instanceof WebsocketServerTransport ws) {
            // http(s)://HOST:PORT/ is a page that talks to this service from a browser.
            BrowserPage.addTo(ws);
        }
        security.apply(server);
        try {
            if (leaseAllowed != null) {
                if (leaseAllowed < 0) {
                    throw new IllegalArgumentException("--lease-allowed must be >= 0, got " + leaseAllowed);
                }
                if (leaseTtl.isNegative() || leaseTtl.isZero() || leaseTtl.toMillis() > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("--lease-ttl must be between 1ms and 2^31-1 ms, got "
                        + leaseTtl.toMillis() + "ms");
                }
                leaseLog = new LeaseLog(leaseAllowed, leaseTtl);
                server.lease(leaseLog.configurer());
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        metrics.start("echo-server");
        CloseableServer running;
        try {
            running = metrics.apply(server).bind(transport).block();
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        metrics.closeWhen(running.onClose());
        if (grpcAddress != null) {
            startGrpc(running, echo);
        }
        String warning = security.warning(address);
        if (warning != null) {
            log.warn(warning);
        }
        Address bound = running.address() instanceof InetSocketAddress a ? address.withPort(a.getPort()) : address;
        log.info("echo-server listening on {} {}: {}, backlog {}, mtu {}, leases {}, drain timeout {} ms, metrics {};"
            + " RPC service sluice.echo.v1.Echo", bound, security.describe(bound),
            // Epoll or NIO is one choice for the whole process, whichever transport asks.
            TcpServerTransport.create("127.0.0.1", 0).epoll() ? "epoll" : "nio",
            backlog != null ? backlog : TcpServerTransport.kernelSomaxconn(), mtu == 0 ? "off" : mtu,
            leaseLog == null ? "off" : leaseAllowed + " requests / " + leaseTtl.toMillis() + " ms",
            shutdown.timeout().toMillis(), metrics.describe());
        return running;
    }

    private void startGrpc(CloseableServer running, RpcService echo) {
        try {
            grpc = GrpcEndpoint.start(grpcAddress, echo);
        } catch (IOException | RuntimeException e) {
            running.dispose();
            throw new IllegalStateException("cannot serve gRPC on " + grpcAddress + ": " + Problems.describe(e), e);
        }
        running.onClose().subscribe(null, null, grpc::close);
        log.info("echo-server serving gRPC on {}:{} (plaintext): sluice.echo.v1.Echo, server reflection, health",
            grpcAddress.host(), grpc.port());
    }

    @Override
    public Integer call() throws Exception {
        CloseableServer running = start();
        String[] last = {counters()};
        Flux.interval(Duration.ofSeconds(1)).subscribe(t -> {
            String now = counters();
            if (!now.equals(last[0])) {
                last[0] = now;
                log.info("{} connections={}", now, running.connectionCount());
            }
            String leases = leaseLog == null ? null : leaseLog.sinceLastCall();
            if (leases != null) {
                log.info(leases);
            }
        });
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            drain(running);
            stopped.countDown();
        }, "sluice-shutdown"));
        running.onClose().block();
        stopped.await();
        return 0;
    }

    private String counters() {
        return grpc == null ? service.counters() : service.counters() + " " + grpc.counters();
    }

    /** What the shutdown hook does: says so, then closes gracefully, waiting up to {@code --drain-timeout}. */
    void drain(CloseableServer running) {
        if (grpc != null) {
            try {
                grpc.drain(shutdown.timeout());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        shutdown.drain(running, log);
    }
}
