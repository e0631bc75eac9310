package dev.sluice.transport.netty.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.InvalidSetupException;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.rsocket.exceptions.RejectedException;
import io.rsocket.lease.Lease;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.util.DefaultPayload;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/** Leases between Sluice and rsocket-java 1.1.5, both directions. */
class LeaseInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /**
     * Their client honours our leases: its availability follows them, requests within the lease succeed, and
     * past it their requester refuses with a RejectedException. (rsocket-java's requester enforces leases itself,
     * so it never sends a request past the lease for our responder to reject on the wire; the responder side of
     * that is covered by LeaseAccountingTest and the engine tests.)
     */
    @Test
    void theirClientReceivesOurLeases() {
        AtomicLong handled = new AtomicLong();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                handled.incrementAndGet();
                return Mono.just(p);
            }
        };
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(handler))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofSeconds(60), 5, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        io.rsocket.RSocket theirs = io.rsocket.core.RSocketConnector.create()
            .lease(spec -> spec.maxPendingRequests(0))
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
        try {
            LeaseAccountingTest.awaitAvailability(new AvailabilityView(theirs), 1.0);
            for (int i = 0; i < 5; i++) {
                io.rsocket.Payload answer = theirs.requestResponse(DefaultPayload.create("q" + i)).block(TIMEOUT);
                assertThat(answer.getDataUtf8()).isEqualTo("q" + i);
                answer.release();
            }
            assertThat(theirs.availability()).isEqualTo(0.0);
            StepVerifier.create(theirs.requestResponse(DefaultPayload.create("over")))
                .expectError(RejectedException.class)
                .verify(TIMEOUT);
            assertThat(handled.get()).isEqualTo(5);
        } finally {
            theirs.dispose();
            server.dispose();
        }
    }

    /** Our client tracks availability from their server's leases, and their responder's REJECTED reaches us. */
    @Test
    void ourClientTracksTheirLeases() {
        Sinks.Many<Lease> leases = Sinks.many().replay().all();
        leases.tryEmitNext(Lease.create(Duration.ofSeconds(60), 4));
        CloseableChannel theirServer = io.rsocket.core.RSocketServer.create(
                io.rsocket.SocketAcceptor.forRequestResponse(p -> Mono.just(p)))
            .lease(spec -> spec.sender(leases::asFlux))
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection ours = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", theirServer.address().getPort())).block(TIMEOUT);
        try {
            LeaseAccountingTest.awaitAvailability(ours, 1.0);
            ours.requestResponse(Payload.create("a")).block(TIMEOUT).release();
            assertThat(ours.availability()).isEqualTo(0.75);
            for (int i = 0; i < 3; i++) {
                ours.requestResponse(Payload.create("b")).block(TIMEOUT).release();
            }
            assertThat(ours.availability()).isEqualTo(0.0);
            // Not strict: we send, and their responder rejects.
            StepVerifier.create(ours.requestResponse(Payload.create("over")))
                .expectErrorSatisfies(e -> assertThat(e)
                    .isInstanceOf(dev.sluice.core.exceptions.RejectedException.class))
                .verify(TIMEOUT);
            leases.tryEmitNext(Lease.create(Duration.ofSeconds(60), 8));
            LeaseAccountingTest.awaitAvailability(ours, 1.0);
        } finally {
            ours.dispose();
            theirServer.dispose();
        }
    }

    /** A SETUP with the L flag to their server without leases fails as rsocket-java answers it. */
    @Test
    void askingTheirLeaselessServerForLeasesFailsClearly() {
        CloseableChannel theirServer = io.rsocket.core.RSocketServer.create(
                io.rsocket.SocketAcceptor.forRequestResponse(p -> Mono.just(p)))
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection ours = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", theirServer.address().getPort())).block(TIMEOUT);
        try {
            ours.onClose().block(TIMEOUT);
            StepVerifier.create(ours.requestResponse(Payload.create("x")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidSetupException.class)
                    .hasMessageContaining("lease is not supported"))
                .verify(TIMEOUT);
        } finally {
            ours.dispose();
            theirServer.dispose();
        }
    }

    /** Adapts their RSocket's availability for the polling helper. */
    private record AvailabilityView(io.rsocket.RSocket theirs) implements RSocket {
        @Override
        public double availability() {
            return theirs.availability();
        }
    }
}
