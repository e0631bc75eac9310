package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.testkit.TestPki;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Sluice client and server over TLS on loopback: every interaction with mutual TLS, both providers either side. */
class TlsRoundTripTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static TestPki.Issued ca;
    private static TestPki.Issued server;
    private static TestPki.Issued otherHost;
    private static TestPki.Issued client;

    private final EchoHandler handler = new EchoHandler();
    private CloseableServer running;
    private Connection connection;

    @BeforeAll
    static void certificates() {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        otherHost = pki.issue(ca, "other-host", "other.example", List.of("other.example"));
        client = pki.issue(ca, "client", "client-1", List.of());
    }

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.dispose();
        }
        if (running != null) {
            running.dispose();
            running.onClose().block(TIMEOUT);
        }
    }

    private void start(TlsServer tls, TlsClient clientTls, String host) {
        running = RSocketServer.create(SocketAcceptor.with(handler))
            .bind(TcpServerTransport.create("127.0.0.1", 0).secure(tls)).block(TIMEOUT);
        connection = RSocketConnector.create()
            .connect(TcpClientTransport.create(host, running.port()).secure(clientTls)).block(TIMEOUT);
    }

    private void startMutual() {
        start(TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile()),
            TlsClient.trusting(ca.certFile()).certificate(client.certFile(), client.keyFile()), "127.0.0.1");
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
        // Each is answered by nothing: a request-response after them proves they were read first, in order.
        connection.requestResponse(Payload.create("after")).doOnNext(Payload::release).block(TIMEOUT);
        assertThat(handler.fireAndForgets.get()).isEqualTo(1);
        assertThat(handler.metadataPushes.get()).isEqualTo(1);
    }

    @Test
    void requestStreamHonoursDemandWithMutualTls() {
        startMutual();
        StepVerifier.create(connection.requestStream(Payload.create("s")).map(TlsRoundTripTest::take), 0)
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
            .map(TlsRoundTripTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(100).startsWith("c0").endsWith("c99");
    }

    @Test
    void aPayloadLargerThanATlsRecordArrivesWhole() {
        startMutual();
        // 1 MiB spans some 64 TLS records of 16 KiB; the frame decoder reassembles them behind the TLS handler.
        byte[] data = new byte[1024 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        Payload reply = connection.requestResponse(Payload.create(Unpooled.wrappedBuffer(data), null))
            .block(TIMEOUT);
        try {
            assertThat(Arrays.mismatch(ByteBufUtil.getBytes(reply.data()), data)).isEqualTo(-1);
        } finally {
            reply.release();
        }
    }

    @ParameterizedTest
    @CsvSource({"OPENSSL, JDK", "JDK, OPENSSL", "JDK, JDK", "OPENSSL, OPENSSL"})
    void eitherProviderTalksToEither(SslProvider serverProvider, SslProvider clientProvider) {
        assumeTrue(OpenSsl.isAvailable(), "OpenSSL is not available here");
        start(TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile())
                .withProvider(serverProvider),
            TlsClient.trusting(ca.certFile()).certificate(client.certFile(), client.keyFile())
                .withProvider(clientProvider),
            "127.0.0.1");
        assertThat(take(connection.requestResponse(Payload.create("across")).block(TIMEOUT))).isEqualTo("across");
    }

    @Test
    void aServerNameLetsAClientReachACertificateForAnotherName() {
        start(TlsServer.ofPem(otherHost.certFile(), otherHost.keyFile()),
            TlsClient.trusting(ca.certFile()).serverName("other.example"), "127.0.0.1");
        assertThat(take(connection.requestResponse(Payload.create("by name")).block(TIMEOUT))).isEqualTo("by name");
    }

    @Test
    void hostnameVerificationCanBeTurnedOff() {
        start(TlsServer.ofPem(otherHost.certFile(), otherHost.keyFile()),
            TlsClient.trusting(ca.certFile()).verifyHostname(false), "127.0.0.1");
        assertThat(take(connection.requestResponse(Payload.create("any name")).block(TIMEOUT))).isEqualTo("any name");
    }

    @Test
    void localhostMatchesItsDnsName() {
        start(TlsServer.ofPem(server.certFile(), server.keyFile()), TlsClient.trusting(ca.certFile()), "localhost");
        assertThat(take(connection.requestResponse(Payload.create("dns")).block(TIMEOUT))).isEqualTo("dns");
    }

    private static String take(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
