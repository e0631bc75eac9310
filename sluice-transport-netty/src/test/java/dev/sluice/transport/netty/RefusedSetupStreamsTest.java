package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.exceptions.RejectedSetupException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Every interaction started on a connection whose SETUP the server refused ends with the refusal, however late its
 * first payload comes: a request-channel whose publisher has nothing yet when the refusal arrives used to wait
 * forever (an upload with a wrong token hung).
 */
class RefusedSetupStreamsTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    private CloseableServer server;
    private Connection client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
        }
        if (server != null) {
            server.dispose();
        }
    }

    private Connection refusedClient() {
        server = RSocketServer.create((setup, socket) -> Mono.error(new RejectedSetupException("go away")))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(HANG_GUARD);
        client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(HANG_GUARD);
        return client;
    }

    @Test
    void aChannelWhoseFirstPayloadComesAfterTheRefusalEndsWithIt() {
        Connection c = refusedClient();
        // The refusal arrives while the channel waits for its publisher's first payload.
        Mono<Void> refused = c.onClose().onErrorResume(e -> Mono.empty());
        Flux<Payload> late = Flux.defer(() -> Flux.just(Payload.create("late"))).delaySubscription(refused);
        StepVerifier.create(c.requestChannel(late))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedSetupException.class)
                .hasMessage("go away"))
            .verify(HANG_GUARD);
    }

    @Test
    void aChannelWhosePublisherNeverEmitsEndsWithTheRefusal() {
        Connection c = refusedClient();
        StepVerifier.create(c.requestChannel(Flux.never()))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedSetupException.class))
            .verify(HANG_GUARD);
    }

    @Test
    void aStreamAfterTheRefusalEndsWithIt() {
        Connection c = refusedClient();
        c.onClose().onErrorResume(e -> Mono.empty()).block(HANG_GUARD);
        StepVerifier.create(c.requestStream(Payload.create("q")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedSetupException.class))
            .verify(HANG_GUARD);
    }
}
