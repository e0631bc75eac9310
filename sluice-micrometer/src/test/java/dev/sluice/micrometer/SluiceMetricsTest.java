package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.limits.RateLimiter;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.loadbalance.Target;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The meters against a real server and client over loopback TCP. */
class SluiceMetricsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final SluiceMetrics metrics = SluiceMetrics.create(registry, Tags.of("role", "test"));
    private CloseableServer server;
    private Connection client;

    @AfterEach
    void close() {
        if (client != null) {
            client.dispose();
        }
        if (server != null) {
            server.dispose();
        }
    }

    @Test
    void requestsAreCountedByInteractionAndOutcome() {
        server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    String text = p.dataUtf8();
                    p.release();
                    return text.equals("fail") ? Mono.error(new IllegalStateException("no"))
                        : Mono.just(Payload.create("ok"));
                }

                @Override
                public Flux<Payload> requestStream(Payload p) {
                    p.release();
                    return Flux.range(0, 3).map(i -> Payload.create("s" + i));
                }

                @Override
                public Mono<Void> fireAndForget(Payload p) {
                    p.release();
                    return Mono.empty();
                }
            }))
            .metrics(metrics.responders())
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        client = connect();
        awaitGauge("sluice.connections.active", 1.0);

        for (int i = 0; i < 10; i++) {
            client.requestResponse(Payload.create("q")).doOnNext(Payload::release).block(TIMEOUT);
        }
        client.requestResponse(Payload.create("fail")).onErrorResume(e -> Mono.empty()).block(TIMEOUT);
        client.requestStream(Payload.create("s")).doOnNext(Payload::release).blockLast(TIMEOUT);
        client.fireAndForget(Payload.create("f")).block(TIMEOUT);
        // Fire-and-forget has no answer: a request-response after it on the same connection is served after it.
        client.requestResponse(Payload.create("q")).doOnNext(Payload::release).block(TIMEOUT);

        assertThat(requests("request_response", "success")).isEqualTo(11);
        assertThat(requests("request_response", "error")).isEqualTo(1);
        assertThat(requests("request_stream", "success")).isEqualTo(1);
        assertThat(requests("fire_and_forget", "success")).isEqualTo(1);
        assertThat(requests("request_channel", "success")).isZero();
        assertThat(registry.get("sluice.request.latency").tag("interaction", "request_response").timer().count())
            .as("sampled: the first request and about one per millisecond after it").isBetween(1L, 12L);

        client.dispose();
        server.dispose();
        server.onClose().block(TIMEOUT);
        awaitGauge("sluice.connections.active", 0.0);
        assertThat(registry.get("sluice.connections.opened").counter().count()).isEqualTo(1.0);
    }

    @Test
    void theGatesDecisionsAndItsRefusalsAreCounted() {
        RequestGate limit = RateLimitGate.of(RateLimiter.create(0.001, 2), Duration.ZERO);
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        server = RSocketServer.create(RequestGate.protect(SocketAcceptor.with(echo), c -> metrics.gate(limit)))
            .metrics(metrics.responders())
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        client = connect();
        int refused = 0;
        for (int i = 0; i < 5; i++) {
            refused += client.requestResponse(Payload.create("q")).doOnNext(Payload::release).then(Mono.just(0))
                .onErrorResume(RejectedException.class, e -> Mono.just(1)).block(TIMEOUT);
        }
        assertThat(refused).isEqualTo(3);
        assertThat(decisions("allowed")).isEqualTo(2);
        assertThat(decisions("rejected")).isEqualTo(3);
        assertThat(requests("request_response", "success")).isEqualTo(2);
        assertThat(requests("request_response", "rejected")).isEqualTo(3);
        assertThat(registry.get("sluice.requests.rejected").tags("interaction", "request_response",
            "reason", "rate_limited").functionCounter().count()).isEqualTo(3);
    }

    @Test
    void leasesAndTheirRefusalsAddUp() {
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        server = RSocketServer.create(SocketAcceptor.with(echo))
            .lease(scheduler -> Leases.of(Flux.just(Lease.of(Duration.ofMinutes(1), 3)).concatWith(Flux.never())))
            .metrics(metrics.responders())
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        // Not waiting for permits: requests over the lease reach the server, whose refusals are counted.
        client = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .connect(TcpClientTransport.create((InetSocketAddress) server.address())).block(TIMEOUT);
        // Wait for the lease to arrive before sending (without waiting, the requester would send anyway).
        Mono.fromCallable(client::availability).filter(a -> a > 0).repeatWhenEmpty(r -> r.delayElements(
            Duration.ofMillis(5)).take(2000)).block(TIMEOUT);
        int refused = 0;
        for (int i = 0; i < 5; i++) {
            refused += client.requestResponse(Payload.create("q")).doOnNext(Payload::release).then(Mono.just(0))
                .onErrorResume(RejectedException.class, e -> Mono.just(1)).block(TIMEOUT);
        }
        assertThat(refused).isEqualTo(2);
        assertThat(registry.get("sluice.requests.rejected").tags("reason", "lease_exhausted").functionCounter()
            .count()).isEqualTo(2);
        assertThat(registry.get("sluice.leases.sent").counter().count()).isEqualTo(1);
        assertThat(permits("granted")).isEqualTo(3);

        client.dispose();
        server.dispose();
        server.onClose().block(TIMEOUT);
        awaitGauge("sluice.connections.active", 0.0);
        assertThat(permits("used")).as("the lease ended with the connection").isEqualTo(3);
        assertThat(permits("unused")).isZero();
    }

    @Test
    void balancerTargetsAreGauged() throws IOException {
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        server = RSocketServer.create(SocketAcceptor.with(echo)).bindNow(TcpServerTransport.create("127.0.0.1", 0));
        int up = ((InetSocketAddress) server.address()).getPort();
        int down = freePort();
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create())
            .build(List.of(target(up), target(down)));
        Disposable gauges = metrics.balancer(balancer, Duration.ofMillis(20));
        try {
            Mono.fromCallable(() -> balancer.connectedTargets().size()).filter(n -> n == 1)
                .repeatWhenEmpty(r -> r.delayElements(Duration.ofMillis(5)).take(2000)).block(TIMEOUT);
            awaitGauge("sluice.balancer.targets", "state", "connected", 1.0);
            assertThat(registry.get("sluice.balancer.targets").tag("state", "known").gauge().value()).isEqualTo(2);
            assertThat(registry.get("sluice.balancer.target.availability").tag("target", "127.0.0.1:" + up).gauge()
                .value()).isEqualTo(1.0);
            assertThat(registry.get("sluice.balancer.target.availability").tag("target", "127.0.0.1:" + down)
                .gauge().value()).isEqualTo(0.0);
        } finally {
            gauges.dispose();
            balancer.dispose();
        }
    }

    private Connection connect() {
        return RSocketConnector.create().connect(TcpClientTransport.create((InetSocketAddress) server.address()))
            .block(TIMEOUT);
    }

    private double requests(String interaction, String outcome) {
        return registry.get("sluice.requests").tags("role", "test", "interaction", interaction, "outcome", outcome)
            .functionCounter().count();
    }

    private double decisions(String decision) {
        return registry.get("sluice.rate.limit.decisions").tag("decision", decision).counter().count();
    }

    private double permits(String state) {
        return registry.get("sluice.lease.permits").tag("state", state).counter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private void awaitGauge(String name, double value) {
        Mono.fromCallable(() -> gauge(name)).filter(v -> v == value)
            .repeatWhenEmpty(r -> r.delayElements(Duration.ofMillis(5)).take(2000)).block(TIMEOUT);
        assertThat(gauge(name)).isEqualTo(value);
    }

    private void awaitGauge(String name, String tag, String tagValue, double value) {
        Mono.fromCallable(() -> registry.get(name).tag(tag, tagValue).gauge().value()).filter(v -> v == value)
            .repeatWhenEmpty(r -> r.delayElements(Duration.ofMillis(5)).take(2000)).block(TIMEOUT);
        assertThat(registry.get(name).tag(tag, tagValue).gauge().value()).isEqualTo(value);
    }

    private static Target target(int port) {
        return new Target("127.0.0.1:" + port, TcpClientTransport.create("127.0.0.1", port));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
