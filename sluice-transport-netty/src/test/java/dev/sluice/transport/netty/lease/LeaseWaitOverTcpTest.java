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
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * A leasing Sluice client's requests wait for a lease permit (the default), over loopback TCP: a request made the
 * moment the connection is up goes out once the first lease arrives instead of being refused, and under a small
 * lease every request is either answered or refused here, the two adding up.
 */
class LeaseWaitOverTcpTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final RSocket ECHO = new RSocket() {
        @Override
        public Mono<Payload> requestResponse(Payload p) {
            return Mono.just(p);
        }
    };

    @Test
    void aRequestMadeRightAfterConnectingWaitsForTheFirstLease() {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(ECHO))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofSeconds(60), 100, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        try {
            int answered = 0;
            for (int i = 0; i < 20; i++) {
                Connection client = RSocketConnector.create().lease()
                    .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
                try {
                    client.requestResponse(Payload.create("first")).block(TIMEOUT).release();
                    answered++;
                } finally {
                    client.dispose();
                }
            }
            assertThat(answered).isEqualTo(20);
        } finally {
            server.dispose();
        }
    }

    @Test
    void underASmallLeaseEveryRequestIsAnsweredOrRefusedHereAndTheyAddUp() {
        AtomicLong handled = new AtomicLong();
        RSocket counting = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                handled.incrementAndGet();
                return Mono.just(p);
            }
        };
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(counting))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofMillis(20), 50, scheduler)))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        // Few may wait, briefly: some requests are refused here, never sent.
        Connection client = RSocketConnector.create().lease().leaseWait(16, Duration.ofMillis(5))
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            AtomicLong ok = new AtomicLong();
            AtomicLong refusedHere = new AtomicLong();
            AtomicLong refusedThere = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            Flux.range(0, 5_000)
                .flatMap(i -> client.requestResponse(Payload.create("r" + i))
                    .doOnNext(p -> {
                        p.release();
                        ok.incrementAndGet();
                    })
                    .onErrorResume(e -> {
                        String m = String.valueOf(e.getMessage());
                        (!(e instanceof RejectedException) ? failed : m.endsWith("not sent)") ? refusedHere
                            : refusedThere).incrementAndGet();
                        return Mono.empty();
                    }), 64)
                .then().block(TIMEOUT);
            assertThat(failed.get()).isZero();
            assertThat(ok.get() + refusedHere.get() + refusedThere.get()).isEqualTo(5_000);
            assertThat(ok.get()).as("some answered").isPositive();
            assertThat(refusedHere.get()).as("some refused before sending").isPositive();
            assertThat(handled.get()).as("handler invocations = answered").isEqualTo(ok.get());
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    @Test
    void withoutALeaseAWaitingRequestIsRefusedHereWhenItsWaitIsOver() {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(ECHO)).lease()
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = RSocketConnector.create().lease().leaseWait(4, Duration.ofMillis(100))
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            StepVerifier.create(client.requestResponse(Payload.create("x")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedException.class)
                    .hasMessage("lease_exhausted (no lease permit within 100 ms: not sent)"))
                .verify(TIMEOUT);
        } finally {
            client.dispose();
            server.dispose();
        }
    }
}
