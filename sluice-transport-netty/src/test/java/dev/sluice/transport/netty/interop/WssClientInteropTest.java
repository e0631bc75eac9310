package dev.sluice.transport.netty.interop;

import dev.sluice.core.transport.ClientTransport;
import dev.sluice.testkit.TestPki;
import dev.sluice.transport.netty.TlsClient;
import dev.sluice.transport.netty.WebsocketClientTransport;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.rsocket.transport.ServerTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.WebsocketServerTransport;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.http.server.HttpServer;

/**
 * Every test of {@link SluiceClientInteropTest} over WebSocket on mutual TLS: Sluice's {@link WebsocketClientTransport}
 * made from a {@code wss://} address, with a client certificate, against rsocket-java 1.1.5's
 * {@code WebsocketServerTransport} on reactor-netty's {@code HttpServer.secure} (client certificates required), which
 * serves the path {@code /}.
 */
class WssClientInteropTest extends SluiceClientInteropTest {

    @TempDir
    static Path dir;
    private static TestPki.Issued ca;
    private static TestPki.Issued client;
    private static SslContext serverContext;

    @BeforeAll
    static void certificates() throws SSLException {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        TestPki.Issued server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        client = pki.issue(ca, "client", "client-1", List.of());
        serverContext = SslContextBuilder.forServer(server.certFile().toFile(), server.keyFile().toFile())
            .trustManager(ca.certFile().toFile())
            .clientAuth(ClientAuth.REQUIRE)
            .build();
    }

    @Override
    ServerTransport<CloseableChannel> javaServerTransport() {
        return WebsocketServerTransport.create(HttpServer.create().host("127.0.0.1").port(0)
            .secure(spec -> spec.sslContext(serverContext)));
    }

    @Override
    ClientTransport sluiceClientTransport(int port) {
        return WebsocketClientTransport.create(URI.create("wss://127.0.0.1:" + port + "/"))
            .secure(TlsClient.trusting(ca.certFile()).certificate(client.certFile(), client.keyFile()));
    }
}
