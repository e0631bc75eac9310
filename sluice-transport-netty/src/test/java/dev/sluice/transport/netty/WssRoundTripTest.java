package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.testkit.TestPki;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Sluice client and server over WebSocket on TLS ({@code wss://}) on loopback: every interaction with mutual TLS,
 * requests from server to client, a message spanning many TLS records, a renewed certificate, and how a
 * {@code wss://} address picks its trust.
 */
class WssRoundTripTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static TestPki.Issued ca;
    private static TestPki.Issued server;
    private static TestPki.Issued client;

    private final EchoHandler handler = new EchoHandler();
    private CloseableServer running;
    private Connection connection;

    @BeforeAll
    static void certificates() {
        pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        client = pki.issue(ca, "client", "client-1", List.of());
    }

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.dispose();
            connection.onClose().onErrorComplete().block(TIMEOUT);
        }
        if (running != null) {
            running.dispose();
            running.onClose().block(TIMEOUT);
        }
    }

    private void startMutual() {
        running = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(WebsocketServerTransport.create("127.0.0.1", 0)
                .secure(TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile())))
            .block(TIMEOUT);
        connection = RSocketConnector.create().responder(c -> new EchoHandler())
            .connect(WebsocketClientTransport.create(URI.create("wss://127.0.0.1:" + running.port() + "/rsocket"))
                .secure(TlsClient.trusting(ca.certFile()).certificate(client.certFile(), client.keyFile())))
            .block(TIMEOUT);
    }

    @Test
    void requestResponseWithMutualTls() {
        startMutual();
        StepVerifier.create(connection.requestResponse(Payload.create("hello", "md")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.metadataUtf8()).isEqualTo("md");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void fireAndForgetAndMetadataPushWithMutualTls() {
        startMutual();
        StepVerifier.create(connection.fireAndForget(Payload.create("fnf"))).expectComplete().verify(TIMEOUT);
        StepVerifier.create(connection.metadataPush(Payload.create("", "pushed"))).expectComplete().verify(TIMEOUT);
        // Both are one-way: a request-response behind them proves they were read (frames are handled in order).
        assertThat(take(connection.requestResponse(Payload.create("after")).block(TIMEOUT))).isEqualTo("after");
        assertThat(handler.fireAndForgets).hasValue(1);
        assertThat(handler.metadataPushes).hasValue(1);
    }

    @Test
    void requestStreamHonoursDemandWithMutualTls() {
        startMutual();
        StepVerifier.create(connection.requestStream(Payload.create("s")).map(WssRoundTripTest::take), 0)
            .thenRequest(3)
            .expectNext("s0", "s1", "s2")
            .thenRequest(2)
            .expectNext("s3", "s4")
            .thenCancel()
            .verify(TIMEOUT);
    }

    @Test
    void requestChannelEchoesWithMutualTls() {
        startMutual();
        List<String> got = connection.requestChannel(Flux.range(0, 100).map(i -> Payload.create("c" + i)))
            .map(WssRoundTripTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(100).startsWith("c0").endsWith("c99");
    }

    @Test
    void theServerRequestsTheClient() throws Exception {
        CompletableFuture<Connection> toClient = new CompletableFuture<>();
        running = RSocketServer.create((setup, sendingSocket) -> {
            toClient.complete(sendingSocket);
            return Mono.just(handler);
        }).bind(WebsocketServerTransport.create("127.0.0.1", 0)
            .secure(TlsServer.ofPem(server.certFile(), server.keyFile()))).block(TIMEOUT);
        connection = RSocketConnector.create().responder(c -> new EchoHandler())
            .connect(WebsocketClientTransport.create("127.0.0.1", running.port())
                .secure(TlsClient.trusting(ca.certFile())))
            .block(TIMEOUT);
        Connection back = toClient.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(take(back.requestResponse(Payload.create("to the client")).block(TIMEOUT)))
            .isEqualTo("to the client");
    }

    @Test
    void aMessageLargerThanATlsRecordArrivesWhole() {
        startMutual();
        // 1 MiB: one WebSocket message over some 64 TLS records of 16 KiB, each way.
        byte[] data = new byte[1024 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        Payload reply = connection.requestResponse(Payload.create(Unpooled.wrappedBuffer(data), null)).block(TIMEOUT);
        try {
            assertThat(Arrays.mismatch(ByteBufUtil.getBytes(reply.data()), data)).isEqualTo(-1);
        } finally {
            reply.release();
        }
    }

    @Test
    void newConnectionsGetARenewedCertificate() throws Exception {
        Path chain = dir.resolve("served.pem");
        Path key = dir.resolve("served.key");
        TestPki.Issued forOtherName = pki.issue(ca, "first", "other.example", List.of("other.example"));
        Files.copy(forOtherName.certFile(), chain, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(forOtherName.keyFile(), key, StandardCopyOption.REPLACE_EXISTING);
        WebsocketServerTransport transport = WebsocketServerTransport.create("127.0.0.1", 0)
            .secure(TlsServer.ofPem(chain, key).reloadInterval(Duration.ZERO));
        running = RSocketServer.create(SocketAcceptor.with(handler)).bind(transport).block(TIMEOUT);
        WebsocketClientTransport byAddress = WebsocketClientTransport.create("127.0.0.1", running.port())
            .secure(TlsClient.trusting(ca.certFile()));
        assertThatThrownBy(() -> RSocketConnector.create().connect(byAddress).block(TIMEOUT))
            .hasMessageContaining("hostname mismatch: certificate is for other.example, not 127.0.0.1");

        // Renewed for the address: new connections get it.
        Files.copy(server.certFile(), chain, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(server.keyFile(), key, StandardCopyOption.REPLACE_EXISTING);
        assertThat(transport.tlsContext().reloadIfChanged()).isTrue();
        connection = RSocketConnector.create().connect(byAddress).block(TIMEOUT);
        assertThat(take(connection.requestResponse(Payload.create("renewed")).block(TIMEOUT))).isEqualTo("renewed");
    }

    @Test
    void aWssAddressTrustsTheJdkDefaultsUnlessToldOtherwise() {
        running = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(WebsocketServerTransport.create("127.0.0.1", 0)
                .secure(TlsServer.ofPem(server.certFile(), server.keyFile())))
            .block(TIMEOUT);
        URI uri = URI.create("wss://127.0.0.1:" + running.port() + "/rsocket");
        WebsocketClientTransport jdkTrust = WebsocketClientTransport.create(uri);
        assertThat(jdkTrust.tls().ca()).isNull();
        assertThat(jdkTrust.uri()).isEqualTo(uri);
        // The test CA is in no JDK trust store: the handshake fails on trust, which proves TLS was attempted with it.
        assertThatThrownBy(() -> RSocketConnector.create().connect(jdkTrust).block(TIMEOUT))
            .hasCauseInstanceOf(ConnectException.class)
            .hasMessageContaining("cannot connect to " + uri + ": TLS handshake failed: certificate not trusted");
        connection = RSocketConnector.create()
            .connect(WebsocketClientTransport.create(uri).secure(TlsClient.trusting(ca.certFile())))
            .block(TIMEOUT);
        assertThat(take(connection.requestResponse(Payload.create("own CA")).block(TIMEOUT))).isEqualTo("own CA");
    }

    @Test
    void schemesAndPortsOfAddresses() {
        assertThat(WebsocketClientTransport.create(URI.create("wss://example.com/rs")).uri())
            .isEqualTo(URI.create("wss://example.com:443/rs"));
        assertThat(WebsocketClientTransport.create(URI.create("ws://example.com/rs")).uri())
            .isEqualTo(URI.create("ws://example.com:80/rs"));
        assertThat(WebsocketClientTransport.create("example.com", 7000).secure(TlsClient.trustingJdkDefaults()).uri())
            .isEqualTo(URI.create("wss://example.com:7000/rsocket"));
        assertThatThrownBy(() -> WebsocketClientTransport.create(URI.create("ws://example.com:7000/rs"))
            .secure(TlsClient.trusting(ca.certFile())))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("secure(...) on a ws:// address (ws://example.com:7000/rs): TLS is wss://, use a wss://"
                + " address");
    }

    private static String take(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
