package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.limits.KeyedRateLimiter;
import dev.sluice.limits.RateLimiter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** A rate-limited responder over loopback TCP: refusals before the handler, waits within the maximum. */
class RateLimitGateTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final AtomicLong handled = new AtomicLong();
    private final RSocket echo = new RSocket() {
        @Override
        public Mono<Payload> requestResponse(Payload p) {
            handled.incrementAndGet();
            return Mono.just(p);
        }
    };

    @Test
    void overTheLimitIsRejectedBeforeTheHandler() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        RateLimiter limiter = RateLimiter.builder(10, 5).clock(now::get).build();
        SocketAcceptor acceptor = RequestGate.protect(SocketAcceptor.with(echo),
            c -> RateLimitGate.of(limiter, Duration.ZERO));
        run(acceptor, client -> {
            long ok = 0;
            long rejected = 0;
            for (int i = 0; i < 20; i++) {
                try {
                    client.requestResponse(Payload.create("r")).block(TIMEOUT).release();
                    ok++;
                } catch (RejectedException e) {
                    assertThat(e).hasMessage("rate_limited");
                    rejected++;
                }
            }
            // The clock did not move: the burst of 5, then nothing.
            assertThat(ok).isEqualTo(5);
            assertThat(rejected).isEqualTo(15);
            assertThat(handled.get()).isEqualTo(5);
            now.addAndGet(300_000_000L); // 300 ms at 10/s: 3 tokens
            for (int i = 0; i < 5; i++) {
                client.requestResponse(Payload.create("r")).onErrorResume(e -> Mono.empty())
                    .doOnNext(Payload::release).block(TIMEOUT);
            }
            assertThat(handled.get()).isEqualTo(8);
        });
    }

    @Test
    void aRequestThatCanGetItsTokenWithinTheMaximumWaitWaits() {
        RateLimiter limiter = RateLimiter.create(50, 1); // a token every 20 ms
        SocketAcceptor acceptor = RequestGate.protect(SocketAcceptor.with(echo),
            c -> RateLimitGate.of(limiter, Duration.ofSeconds(5)));
        run(acceptor, client -> {
            for (int i = 0; i < 5; i++) {
                client.requestResponse(Payload.create("w")).block(TIMEOUT).release();
            }
            assertThat(handled.get()).as("every request waited for its token, none refused").isEqualTo(5);
        });
    }

    @Test
    void keyedByClientAddressGivesEachConnectionItsOwnBucket() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        KeyedRateLimiter<String> limiter = KeyedRateLimiter.<String>builder(1, 2).clock(now::get).build();
        SocketAcceptor acceptor = RequestGate.protect(SocketAcceptor.with(echo), c -> {
            String key = String.valueOf(c.remoteAddress());
            return RateLimitGate.of(limiter, p -> key, Duration.ZERO);
        });
        CloseableServer server = RSocketServer.create(acceptor).bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        Connection a = connect(server);
        Connection b = connect(server);
        try {
            for (Connection c : new Connection[] {a, b}) {
                c.requestResponse(Payload.create("1")).block(TIMEOUT).release();
                c.requestResponse(Payload.create("2")).block(TIMEOUT).release();
                StepVerifier.create(c.requestResponse(Payload.create("3")))
                    .expectErrorMessage("rate_limited").verify(TIMEOUT);
            }
            assertThat(handled.get()).isEqualTo(4);
        } finally {
            a.dispose();
            b.dispose();
            server.dispose();
        }
    }

    private void run(SocketAcceptor acceptor, java.util.function.Consumer<Connection> body) {
        CloseableServer server = RSocketServer.create(acceptor).bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        Connection client = connect(server);
        try {
            body.accept(client);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    private static Connection connect(CloseableServer server) {
        return RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }
}
