package dev.sluice.transport.netty.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.AdaptiveLeases;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.limits.adaptive.Gradient2Limit;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The snippet of {@code docs/leases.md}, compiled and run over loopback TCP: a server whose leases an
 * {@link AdaptiveLeases} sizes, and a leasing client whose requests are accepted or rejected, never lost.
 */
class AdaptiveLeaseSnippetTest {

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

        // --- docs/leases.md snippet: start ---
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(handler))
            .lease(scheduler -> Leases.adaptive(
                AdaptiveLeases.builder(Gradient2Limit.builder().minLimit(1).maxLimit(500).build())
                    .targetLatency(Duration.ofMillis(20))
                    .build(),
                scheduler))
            .bind(TcpServerTransport.create("127.0.0.1", port))
            .block();
        // --- docs/leases.md snippet: end ---

        Connection client = RSocketConnector.create().lease()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            LeaseOutcomes out = LeaseOutcomes.send(client, 2_000, 16, TIMEOUT);
            assertThat(out.failed()).isZero();
            assertThat(out.answered() + out.refused()).isEqualTo(2_000);
            assertThat(out.answered()).as("accepted under the adaptive lease").isPositive();
        } finally {
            client.dispose();
            server.dispose();
        }
    }
}
