package dev.sluice.transport.netty.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.InvalidSetupException;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Leases between a Sluice client and server over loopback TCP. */
class LeaseAccountingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void tenThousandRequestsOverASmallLeaseAddUpOnBothSides() {
        AtomicLong handled = new AtomicLong();
        CountingStats stats = new CountingStats();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                handled.incrementAndGet();
                return Mono.just(p);
            }
        };
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(handler))
            .lease(scheduler -> Leases.of(stats, s -> Leases.fixed(Duration.ofMillis(20), 50, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        // Not waiting for permits: every request reaches the server, which accepts or refuses it.
        Connection client = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            LeaseOutcomes out = LeaseOutcomes.send(client, 10_000, 64, TIMEOUT);
            assertThat(out.failed()).isZero();
            assertThat(out.answered() + out.refused()).isEqualTo(10_000);
            assertThat(out.answered()).as("some accepted").isPositive();
            assertThat(out.refused()).as("some rejected").isPositive();
            assertThat(stats.started.get()).isEqualTo(10_000);
            assertThat(stats.accepted.get()).isEqualTo(out.answered());
            assertThat(stats.rejected.get()).isEqualTo(out.refused());
            assertThat(stats.terminated.get()).isEqualTo(10_000);
            assertThat(handled.get()).as("handler invocations = accepted").isEqualTo(out.answered());
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    @Test
    void leasingWithoutASenderAcceptsNothing() {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(new RSocket() { })).lease()
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            StepVerifier.create(client.requestResponse(Payload.create("x")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedException.class)
                    .hasMessage("lease_expired"))
                .verify(TIMEOUT);
            assertThat(client.availability()).isEqualTo(0.0);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    @Test
    void askingALeaselessServerForLeasesFailsClearly() {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(new RSocket() { }))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            client.onClose().block(TIMEOUT);
            StepVerifier.create(client.requestResponse(Payload.create("x")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidSetupException.class)
                    .hasMessage("lease is not supported"))
                .verify(TIMEOUT);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    @Test
    void availabilityDropsToZeroWhenTheServerClosesGracefully() {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(new RSocket() { }))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofSeconds(60), 10, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            awaitAvailability(client, 1.0);
            server.closeGracefully(Duration.ofSeconds(5)).block(TIMEOUT);
            client.onClose().block(TIMEOUT);
            assertThat(client.availability()).isEqualTo(0.0);
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    static void awaitAvailability(RSocket socket, double expected) {
        for (int i = 0; i < 500 && socket.availability() != expected; i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        assertThat(socket.availability()).isEqualTo(expected);
    }
}
