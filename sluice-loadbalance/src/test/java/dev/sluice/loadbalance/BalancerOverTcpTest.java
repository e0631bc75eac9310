package dev.sluice.loadbalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The balancer against real leasing servers over loopback TCP. */
class BalancerOverTcpTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Counts outcomes so the test can check that sent = responses + rejected + failed. */
    private static final class Outcomes {
        final LongAdder sent = new LongAdder();
        final ConcurrentHashMap<String, LongAdder> responses = new ConcurrentHashMap<>();
        final LongAdder rejected = new LongAdder();
        final LongAdder failed = new LongAdder();

        Mono<Void> send(RSocket socket) {
            sent.increment();
            return socket.requestResponse(Payload.create("q"))
                .doOnNext(p -> {
                    responses.computeIfAbsent(p.dataUtf8(), k -> new LongAdder()).increment();
                    p.release();
                })
                .onErrorResume(e -> {
                    (e instanceof RejectedException ? rejected : failed).increment();
                    return Mono.empty();
                })
                .then();
        }

        long responses(String key) {
            LongAdder a = responses.get(key);
            return a == null ? 0 : a.sum();
        }

        long totalResponses() {
            return responses.values().stream().mapToLong(LongAdder::sum).sum();
        }

        void assertAddsUp() {
            assertThat(sent.sum()).isEqualTo(totalResponses() + rejected.sum() + failed.sum());
        }
    }

    private static CloseableServer leasingServer(int port, int perSecond, AtomicLong handled) {
        RSocket named = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                p.release();
                handled.incrementAndGet();
                return Mono.just(Payload.create("s" + perSecond));
            }
        };
        return RSocketServer.create(SocketAcceptor.with(named))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofSeconds(1), perSecond, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", port)).block(TIMEOUT);
    }

    @Test
    void acceptedTrafficFollowsTheLeases() throws InterruptedException {
        List<CloseableServer> servers = new ArrayList<>();
        List<Target> targets = new ArrayList<>();
        for (int lease : new int[] {50, 100, 150}) {
            CloseableServer s = leasingServer(0, lease, new AtomicLong());
            servers.add(s);
            targets.add(new Target("s" + lease, TcpClientTransport.create("127.0.0.1", s.port())));
        }
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease())
            .build(targets);
        Outcomes o = new Outcomes();
        try {
            awaitConnected(balancer, 3);
            // 600 requests/s for 4 s against 300/s of leases: every lease is used up each second.
            Flux.interval(Duration.ofMillis(5)).take(800)
                .flatMap(t -> Flux.range(0, 3).flatMap(i -> o.send(balancer)), 256)
                .then().block(TIMEOUT);
            o.assertAddsUp();
            assertThat(o.failed.sum()).isZero();
            double unit = o.responses("s50");
            assertThat(unit).isPositive();
            assertThat(o.responses("s100") / unit).as("100 vs 50").isBetween(1.6, 2.4);
            assertThat(o.responses("s150") / unit).as("150 vs 50").isBetween(2.4, 3.6);
            assertThat(o.rejected.sum()).as("the excess is rejected").isPositive();
        } finally {
            balancer.dispose();
            servers.forEach(CloseableServer::dispose);
        }
    }

    @Test
    void aKilledServerIsDroppedAndReAddedWhenItReturns() throws Exception {
        int port = freePort();
        AtomicLong handledA = new AtomicLong();
        CloseableServer a = leasingServer(port, 10_000, handledA);
        CloseableServer b = leasingServer(0, 10_000, new AtomicLong());
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease())
            .backoff(Duration.ofMillis(50), Duration.ofMillis(200))
            .build(List.of(new Target("a", TcpClientTransport.create("127.0.0.1", port)),
                new Target("b", TcpClientTransport.create("127.0.0.1", b.port()))));
        Outcomes o = new Outcomes();
        try {
            awaitConnected(balancer, 2);
            Flux.range(0, 200).flatMap(i -> o.send(balancer), 16).then().block(TIMEOUT);
            assertThat(handledA.get()).as("a takes traffic").isPositive();

            a.dispose();
            awaitConnected(balancer, 1);
            assertThat(balancer.connectedTargets()).containsExactly("b");
            long beforeA = handledA.get();
            Flux.range(0, 200).flatMap(i -> o.send(balancer), 16).then().block(TIMEOUT);
            assertThat(handledA.get()).as("nothing reaches the dead server").isEqualTo(beforeA);

            a = leasingServer(port, 10_000, handledA);
            awaitConnected(balancer, 2);
            Flux.range(0, 200).flatMap(i -> o.send(balancer), 16).then().block(TIMEOUT);
            assertThat(handledA.get()).as("the restarted server takes traffic again").isGreaterThan(beforeA);
            o.assertAddsUp();
        } finally {
            balancer.dispose();
            a.dispose();
            b.dispose();
        }
    }

    @Test
    void saysWhyATargetRefusedTheConnection() throws InterruptedException {
        // A server without leases refuses a requester that asks for them: the balancer's error must say so, not
        // just "no target".
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        CloseableServer plain = RSocketServer.create(SocketAcceptor.with(echo))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease())
            .backoff(Duration.ofSeconds(10), Duration.ofSeconds(10))
            .build(List.of(new Target("plain", TcpClientTransport.create("127.0.0.1", plain.port()))));
        try {
            Throwable error = null;
            // Before the first connect the target is "not connected yet"; a request may reach the connection before
            // the refusal and fail with it (InvalidSetupException); after it, the balancer has no target and says
            // why.
            for (int i = 0; i < 500 && !(error instanceof NoTargetAvailableException
                && error.getMessage().contains("lease")); i++) {
                error = balancer.requestResponse(Payload.create("q")).map(p -> {
                    p.release();
                    return (Throwable) new AssertionError("answered without a lease");
                }).onErrorResume(e -> Mono.just(e)).block(TIMEOUT);
                Thread.sleep(10);
            }
            assertThat(error).isInstanceOf(NoTargetAvailableException.class)
                .hasMessageContaining("plain: connection lost: lease is not supported");
        } finally {
            balancer.dispose();
            plain.dispose();
        }
    }

    private static void awaitConnected(LeastLoadedBalancer balancer, int count) throws InterruptedException {
        for (int i = 0; i < 1000 && (balancer.connectedTargets().size() != count || balancer.availability() == 0);
             i++) {
            Thread.sleep(10);
        }
        assertThat(balancer.connectedTargets()).hasSize(count);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
