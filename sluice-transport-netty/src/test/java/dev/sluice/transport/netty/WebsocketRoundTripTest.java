package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.ApplicationErrorException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Sluice client against Sluice server over loopback WebSocket: every interaction, fragmentation, messages large
 * enough to take the uncopied (server) and masked (client) paths, requests from server to client, and the client's
 * account of a refused upgrade.
 */
class WebsocketRoundTripTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final EchoHandler handler = new EchoHandler();
    private CloseableServer server;
    private Connection client;

    private void start(int mtu) {
        start(mtu, WebsocketServerTransport.create("127.0.0.1", 0), port -> WebsocketClientTransport.create(
            "127.0.0.1", port));
    }

    private void start(int mtu, WebsocketServerTransport serverTransport,
                       java.util.function.IntFunction<WebsocketClientTransport> clientTransport) {
        RSocketServer rs = RSocketServer.create(SocketAcceptor.with(handler));
        RSocketConnector rc = RSocketConnector.create().responder(c -> new EchoHandler());
        if (mtu > 0) {
            rs.fragment(mtu);
            rc.fragment(mtu);
        }
        server = rs.bind(serverTransport).block(TIMEOUT);
        client = rc.connect(clientTransport.apply(server.port())).block(TIMEOUT);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
            client.onClose().onErrorComplete().block(TIMEOUT);
        }
        if (server != null) {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }

    @Test
    void requestResponseEchoesDataAndMetadata() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("hello", "md")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.metadataUtf8()).isEqualTo("md");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void applicationErrorCarriesItsMessage() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("fail")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("you asked for it"))
            .verify(TIMEOUT);
    }

    @Test
    void fireAndForgetAndMetadataPushArrive() {
        start(0);
        StepVerifier.create(client.fireAndForget(Payload.create("fnf"))).expectComplete().verify(TIMEOUT);
        StepVerifier.create(client.metadataPush(Payload.create("", "pushed"))).expectComplete().verify(TIMEOUT);
        // Both are one-way: a request-response behind them proves they were read (frames are handled in order).
        StepVerifier.create(client.requestResponse(Payload.create("after")).doOnNext(Payload::release))
            .expectNextCount(1).expectComplete().verify(TIMEOUT);
        assertThat(handler.fireAndForgets).hasValue(1);
        assertThat(handler.metadataPushes).hasValue(1);
    }

    @Test
    void requestStreamHonoursDemand() {
        start(0);
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
        start(0);
        List<String> got = client.requestChannel(Flux.range(0, 100).map(i -> Payload.create("c" + i)))
            .map(WebsocketRoundTripTest::text)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(100).startsWith("c0", "c1").endsWith("c99");
    }

    @Test
    void manyConcurrentRequestsShareBatches() {
        start(0);
        Long count = Flux.range(0, 10_000)
            .flatMap(i -> client.requestResponse(Payload.create("r" + i)), 256)
            .doOnNext(Payload::release)
            .count().block(TIMEOUT);
        assertThat(count).isEqualTo(10_000L);
    }

    @Test
    void fragmentedPayloadsOfEveryInteractionAreReassembled() {
        start(64);
        String big = "x".repeat(10_000);
        StepVerifier.create(client.requestResponse(Payload.create(big, "m".repeat(500))))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo(big);
                assertThat(p.metadataUtf8()).isEqualTo("m".repeat(500));
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
        StepVerifier.create(client.requestStream(Payload.create(big)).map(WebsocketRoundTripTest::text), 0)
            .thenRequest(3)
            .expectNext(big + 0, big + 1, big + 2)
            .thenCancel()
            .verify(TIMEOUT);
        List<String> channel = client.requestChannel(Flux.range(0, 5).map(i -> Payload.create(big + i)))
            .map(WebsocketRoundTripTest::text).collectList().block(TIMEOUT);
        assertThat(channel).containsExactly(big + 0, big + 1, big + 2, big + 3, big + 4);
        StepVerifier.create(client.fireAndForget(Payload.create(big))).expectComplete().verify(TIMEOUT);
    }

    @Test
    void largeMessagesTravelUnfragmented() {
        // 1 MiB frames: the server sends them uncopied behind their header, the client masks them.
        start(0);
        String big = "y".repeat(1 << 20);
        StepVerifier.create(client.requestResponse(Payload.create(big, "md")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo(big);
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void serverRequestsTheClient() {
        CompletableFuture<Connection> toClient = new CompletableFuture<>();
        server = RSocketServer.create((setup, sendingSocket) -> {
            toClient.complete(sendingSocket);
            return Mono.just(handler);
        }).bind(WebsocketServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        client = RSocketConnector.create().responder(c -> new EchoHandler())
            .connect(WebsocketClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        Connection back = Mono.fromFuture(toClient).block(TIMEOUT);
        StepVerifier.create(back.requestResponse(Payload.create("from server")).map(WebsocketRoundTripTest::text))
            .expectNext("from server")
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void customPathAndUriAddress() {
        start(0, WebsocketServerTransport.create("127.0.0.1", 0).path("/custom/rs"),
            port -> WebsocketClientTransport.create(URI.create("ws://127.0.0.1:" + port + "/custom/rs?x=1")));
        StepVerifier.create(client.requestResponse(Payload.create("custom")).map(WebsocketRoundTripTest::text))
            .expectNext("custom")
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void upgradeOnAnotherPathFailsTheConnectWithTheServersReason() {
        server = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(WebsocketServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        WebsocketClientTransport wrong = WebsocketClientTransport.create("127.0.0.1", server.port()).path("/other");
        assertThatThrownBy(() -> RSocketConnector.create().connect(wrong).block(TIMEOUT))
            .hasCauseInstanceOf(ConnectException.class)
            .hasMessageContaining("cannot connect to ws://127.0.0.1:" + server.port() + "/other: WebSocket upgrade"
                + " refused: 404 Not Found: no WebSocket endpoint at /other; RSocket is served at /rsocket");
    }

    @Test
    void serverThatNeverAnswersTheUpgradeFailsTheConnectAfterTheTimeout() {
        // A TCP Sluice server reads "GET / HTTP/1.1..." as a frame length prefix and waits for the rest.
        server = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        WebsocketClientTransport ws = WebsocketClientTransport.create("127.0.0.1", server.port())
            .connectTimeout(Duration.ofMillis(200));
        assertThatThrownBy(() -> RSocketConnector.create().connect(ws).block(TIMEOUT))
            .hasMessageContaining("no answer to the WebSocket upgrade within 200 ms");
    }

    @Test
    void badSettingsAreRefusedWithTheValue() {
        assertThatThrownBy(() -> WebsocketServerTransport.create("127.0.0.1", 0).path("rsocket"))
            .hasMessage("path must start with '/' and hold no query, fragment, space or non-ASCII character, got"
                + " 'rsocket'");
        assertThatThrownBy(() -> WebsocketClientTransport.create(URI.create("http://example.com/rs")))
            .hasMessage("expected a ws:// or wss://host[:port][/path] address, got 'http://example.com/rs'");
        assertThatThrownBy(() -> WebsocketServerTransport.create("127.0.0.1", 0).maxFrameLength(5))
            .hasMessage("maxFrameLength must be between 6 and 16777215, got 5");
        assertThatThrownBy(() -> WebsocketServerTransport.create("127.0.0.1", 0).handshakeTimeout(Duration.ZERO))
            .hasMessage("handshakeTimeout must be > 0, got PT0S");
    }

    private static String text(Payload p) {
        String s = p.dataUtf8();
        p.release();
        return s;
    }
}
