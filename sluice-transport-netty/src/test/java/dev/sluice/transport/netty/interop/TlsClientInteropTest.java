package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.testkit.TestPki;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TlsClient;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.rsocket.SocketAcceptor;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.server.CloseableChannel;
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
import reactor.netty.tcp.TcpServer;
import reactor.test.StepVerifier;

/**
 * Sluice's TLS client, with a client certificate, against rsocket-java 1.1.5's server over reactor-netty's TLS
 * ({@code TcpServer.secure}, client certificates required): the four request interactions. The mirror of
 * {@link TlsServerInteropTest}.
 */
class TlsClientInteropTest {

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

    private final JavaResponder responder = new JavaResponder();
    private CloseableChannel channel;
    private Connection sluice;

    private void start() throws SSLException {
        SslContext tls = SslContextBuilder.forServer(server.certFile().toFile(), server.keyFile().toFile())
            .trustManager(ca.certFile().toFile())
            .clientAuth(ClientAuth.REQUIRE)
            .build();
        channel = io.rsocket.core.RSocketServer.create(SocketAcceptor.with(responder))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create(
                TcpServer.create().host("127.0.0.1").port(0).secure(spec -> spec.sslContext(tls))))
            .block(TIMEOUT);
        sluice = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", channel.address().getPort())
                .secure(TlsClient.trusting(ca.certFile()).certificate(client.certFile(), client.keyFile())))
            .block(TIMEOUT);
    }

    @AfterEach
    void stop() {
        if (sluice != null) {
            sluice.dispose();
            sluice.onClose().block(TIMEOUT);
        }
        if (channel != null) {
            channel.dispose();
            channel.onClose().block(TIMEOUT);
        }
    }

    @Test
    void requestResponse() throws Exception {
        start();
        StepVerifier.create(sluice.requestResponse(Payload.create("hello", "md-1")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.metadataUtf8()).isEqualTo("md-1");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void fireAndForget() throws Exception {
        start();
        StepVerifier.create(sluice.fireAndForget(Payload.create("fnf-1")))
            .expectComplete().verify(TIMEOUT);
        assertThat(responder.fireAndForgets.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("fnf-1");
    }

    @Test
    void requestStream() throws Exception {
        start();
        StepVerifier.create(sluice.requestStream(Payload.create("s")).map(TlsClientInteropTest::take),
                0)
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
        List<String> got = sluice.requestChannel(Flux.range(0, 50)
                .map(i -> Payload.create("ch" + i)))
            .map(TlsClientInteropTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(50).startsWith("ch0").endsWith("ch49");
    }

    private static String take(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
