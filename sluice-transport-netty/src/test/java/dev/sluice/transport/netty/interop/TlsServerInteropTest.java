package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.testkit.TestPki;
import dev.sluice.transport.netty.TcpServerTransport;
import dev.sluice.transport.netty.TlsServer;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.util.ByteBufPayload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.netty.tcp.TcpClient;
import reactor.test.StepVerifier;

/**
 * rsocket-java 1.1.5's client over reactor-netty's TLS ({@code TcpClient.secure}) against Sluice's TLS server, with
 * client certificates: the four request interactions. The mirror of {@link TlsClientInteropTest}; the plaintext
 * interop tests cover the rest of the protocol, these prove the TLS layers agree.
 */
class TlsServerInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static TestPki.Issued ca;
    private static TestPki.Issued server;
    private static TestPki.Issued client;

    @BeforeAll
    static void certificates() {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        client = pki.issue(ca, "client", "client-1", List.of());
    }

    private final SluiceResponder responder = new SluiceResponder();
    private CloseableServer sluice;
    private RSocket rsocket;

    private void start() throws SSLException {
        sluice = RSocketServer.create(dev.sluice.core.SocketAcceptor.with(responder))
            .bind(TcpServerTransport.create("127.0.0.1", 0)
                .secure(TlsServer.ofPem(server.certFile(), server.keyFile())
                    .requireClientCertificates(ca.certFile())))
            .block(TIMEOUT);
        SslContext tls = SslContextBuilder.forClient()
            .trustManager(ca.certFile().toFile())
            .keyManager(client.certFile().toFile(), client.keyFile().toFile())
            .build();
        rsocket = io.rsocket.core.RSocketConnector.create()
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create(
                TcpClient.create().host("127.0.0.1").port(sluice.port()).secure(spec -> spec.sslContext(tls))))
            .block(TIMEOUT);
    }

    @AfterEach
    void stop() {
        if (rsocket != null) {
            rsocket.dispose();
            rsocket.onClose().block(TIMEOUT);
        }
        if (sluice != null) {
            sluice.dispose();
            sluice.onClose().block(TIMEOUT);
        }
    }

    @Test
    void requestResponse() throws Exception {
        start();
        StepVerifier.create(rsocket.requestResponse(ByteBufPayload.create("hello", "md-1")))
            .assertNext(p -> {
                assertThat(p.getDataUtf8()).isEqualTo("hello");
                assertThat(p.getMetadataUtf8()).isEqualTo("md-1");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void fireAndForget() throws Exception {
        start();
        StepVerifier.create(rsocket.fireAndForget(ByteBufPayload.create("fnf-1"))).expectComplete().verify(TIMEOUT);
        assertThat(responder.fireAndForgets.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("fnf-1");
    }

    @Test
    void requestStream() throws Exception {
        start();
        StepVerifier.create(rsocket.requestStream(ByteBufPayload.create("s")).map(TlsServerInteropTest::take), 0)
            .thenRequest(5)
            .expectNext("s0", "s1", "s2", "s3", "s4")
            .thenCancel()
            .verify(TIMEOUT);
        responder.streamCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(responder.streamEmitted.get()).isEqualTo(5);
    }

    @Test
    void requestChannel() throws Exception {
        start();
        List<String> got = rsocket.requestChannel(Flux.range(0, 50).map(i -> ByteBufPayload.create("ch" + i)))
            .map(TlsServerInteropTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(50).startsWith("ch0").endsWith("ch49");
    }

    private static String take(Payload p) {
        try {
            return p.getDataUtf8();
        } finally {
            p.release();
        }
    }
}
