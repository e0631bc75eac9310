package dev.sluice.transport.netty.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLeases;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The rate-lease snippet of {@code docs/leases.md}, compiled and run over loopback TCP: a server whose leases a
 * {@link RateLeases} sizes, and a leasing client whose requests wait for permits and are answered or refused
 * here, never lost.
 */
class RateLeaseSnippetTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void theDocumentedConfigurationServesAndAccountsEveryRequest() {
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        int port = 0;

        // --- docs/leases.md rate snippet: start ---
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(handler))
            .lease(scheduler -> Leases.adaptive(RateLeases.builder(Duration.ofMillis(20)).build(), scheduler))
            .bind(TcpServerTransport.create("127.0.0.1", port))
            .block();
        // --- docs/leases.md rate snippet: end ---

        Connection client = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            LeaseOutcomes out = LeaseOutcomes.send(client, 400, 16, TIMEOUT);
            assertThat(out.failed()).isZero();
            assertThat(out.answered() + out.refused()).isEqualTo(400);
            // Slow start from 10 a second: well over the first second's ten, the lease grew while it was used.
            assertThat(out.answered()).as("answered under the rate lease").isGreaterThan(50);
        } finally {
            client.dispose();
            server.dispose();
        }
    }
}
