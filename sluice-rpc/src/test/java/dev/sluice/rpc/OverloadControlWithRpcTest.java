package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.limits.RateLimiter;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.loadbalance.Target;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.EchoService;
import dev.sluice.rpc.echo.v1.RealEchoService;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Leases, the rate-limit gate and the balancer work unchanged for RPC traffic: they sit below the router, and a
 * refusal reaches the generated client as {@link RpcStatus#UNAVAILABLE}. (The proxy, built from the same balancer,
 * has its own RPC test in sluice-cli.)
 */
class OverloadControlWithRpcTest {

    private static final Duration TIMEOUT = LoopbackRpc.TIMEOUT;
    private static final EchoRequest HELLO = EchoRequest.newBuilder().setText("hello").build();

    /** Says hello {@code n} times; returns how many calls succeeded, and asserts every failure is UNAVAILABLE. */
    private static int say(EchoClient echo, int n, String expectedDescription) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            try {
                assertThat(echo.say(HELLO).block(TIMEOUT).getText()).isEqualTo("hello");
                ok++;
            } catch (RpcException e) {
                assertThat(e.status()).isEqualTo(RpcStatus.UNAVAILABLE);
                assertThat(e.description()).isEqualTo(expectedDescription);
            }
        }
        return ok;
    }

    @Test
    void callsBeyondTheLeaseAreRejectedBeforeTheService() throws InterruptedException {
        AtomicInteger served = new AtomicInteger();
        CloseableServer server = RSocketServer.create(RpcRouter.of(EchoRpc.bind(counting(served))).acceptor())
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofMinutes(10), 5, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        // Not waiting for permits: calls over the lease reach the server, which refuses them before the service.
        Connection connection = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 500 && connection.availability() == 0.0; i++) {
                Thread.sleep(10);
            }
            assertThat(say(EchoRpc.client(connection), 8, "lease_exhausted")).isEqualTo(5);
            assertThat(served.get()).isEqualTo(5);
        } finally {
            connection.dispose();
            server.dispose();
        }
    }

    @Test
    void theRateLimitGateRefusesCallsOverTheLimit() {
        AtomicInteger served = new AtomicInteger();
        AtomicLong now = new AtomicLong(1_000_000_000L);
        RateLimiter limiter = RateLimiter.builder(10, 3).clock(now::get).build();
        CloseableServer server = RSocketServer.create(RequestGate.protect(
                RpcRouter.of(EchoRpc.bind(counting(served))).acceptor(),
                c -> RateLimitGate.of(limiter, Duration.ZERO)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection connection = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            // The clock stands still: the burst of 3 passes, the rest is refused before the router.
            assertThat(say(EchoRpc.client(connection), 7, RateLimitGate.RATE_LIMITED)).isEqualTo(3);
            assertThat(served.get()).isEqualTo(3);
        } finally {
            connection.dispose();
            server.dispose();
        }
    }

    @Test
    void theBalancerSpreadsCallsOverItsTargets() throws InterruptedException {
        List<CloseableServer> servers = new ArrayList<>();
        List<Target> targets = new ArrayList<>();
        List<AtomicInteger> served = List.of(new AtomicInteger(), new AtomicInteger());
        for (AtomicInteger count : served) {
            CloseableServer s = RSocketServer.create(RpcRouter.of(EchoRpc.bind(counting(count))).acceptor())
                .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofMinutes(10), 1000, scheduler)))
                .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
            servers.add(s);
            targets.add(new Target("s" + servers.size(), TcpClientTransport.create("127.0.0.1", s.port())));
        }
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease()).build(targets);
        try {
            // Every target's lease, not only the best one: a call before the second lease arrives goes to the first.
            for (int i = 0; i < 500 && (balancer.connectedTargets().size() < 2
                || balancer.availabilityByTarget().values().stream().anyMatch(a -> a == 0.0)); i++) {
                Thread.sleep(10);
            }
            EchoClient echo = EchoRpc.client(balancer);
            assertThat(say(echo, 20, "")).isEqualTo(20);
            assertThat(echo.repeat(EchoRequest.newBuilder().setCount(3).build()).count().block(TIMEOUT))
                .isEqualTo(3);
            assertThat(echo.collect(Flux.just(HELLO, HELLO)).block(TIMEOUT).getIndex()).isEqualTo(2);
            assertThat(served.get(0).get()).as("first target").isPositive();
            assertThat(served.get(1).get()).as("second target").isPositive();
            assertThat(served.get(0).get() + served.get(1).get()).isEqualTo(20);
        } finally {
            balancer.dispose();
            servers.forEach(CloseableServer::dispose);
        }
    }

    /** Echo that counts the Say calls that reach it. */
    private static EchoService counting(AtomicInteger says) {
        RealEchoService echo = new RealEchoService();
        return new EchoService() {
            @Override
            public Mono<EchoReply> say(EchoRequest request) {
                says.incrementAndGet();
                return echo.say(request);
            }

            @Override
            public Flux<EchoReply> repeat(EchoRequest request) {
                return echo.repeat(request);
            }

            @Override
            public Mono<EchoReply> collect(Flux<EchoRequest> requests) {
                return echo.collect(requests);
            }

            @Override
            public Flux<EchoReply> chat(Flux<EchoRequest> requests) {
                return echo.chat(requests);
            }
        };
    }
}
