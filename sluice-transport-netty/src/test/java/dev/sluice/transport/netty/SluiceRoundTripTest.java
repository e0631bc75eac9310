package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Sluice client against Sluice server over loopback TCP: every interaction, both directions. */
class SluiceRoundTripTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final EchoHandler handler = new EchoHandler();
    private CloseableServer server;
    private Connection client;

    @BeforeEach
    void start() {
        server = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }

    @AfterEach
    void stop() {
        client.dispose();
        server.dispose();
    }

    @Test
    void requestResponseEchoesDataAndMetadata() {
        StepVerifier.create(client.requestResponse(Payload.create("hello", "md")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.hasMetadata()).isTrue();
                assertThat(p.metadataUtf8()).isEqualTo("md");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void applicationErrorCarriesItsMessage() {
        StepVerifier.create(client.requestResponse(Payload.create("fail")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("you asked for it"))
            .verify(TIMEOUT);
    }

    @Test
    void requestStreamHonoursDemand() {
        StepVerifier.create(client.requestStream(Payload.create("s")).doOnNext(Payload::release), 0)
            .thenRequest(5)
            .expectNextCount(5)
            .thenRequest(5)
            .expectNextCount(5)
            .thenCancel()
            .verify(TIMEOUT);
    }

    @Test
    void requestChannelEchoes() {
        List<String> got = client.requestChannel(Flux.range(0, 100).map(i -> Payload.create("c" + i)))
            .map(p -> {
                String s = p.dataUtf8();
                p.release();
                return s;
            })
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(100).startsWith("c0", "c1").endsWith("c99");
    }

    @Test
    void manyConcurrentRequests() {
        Long count = Flux.range(0, 10_000)
            .flatMap(i -> client.requestResponse(Payload.create("r" + i)), 256)
            .doOnNext(Payload::release)
            .count().block(TIMEOUT);
        assertThat(count).isEqualTo(10_000L);
    }
}
