package dev.sluice.transport.netty.interop;

import dev.sluice.core.transport.ServerTransport;
import dev.sluice.testkit.TestPki;
import dev.sluice.transport.netty.TlsServer;
import dev.sluice.transport.netty.WebsocketServerTransport;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.rsocket.transport.ClientTransport;
import io.rsocket.transport.netty.client.WebsocketClientTransport;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.http.client.HttpClient;

/**
 * Every test of {@link SluiceServerInteropTest} over WebSocket on mutual TLS: rsocket-java 1.1.5's
 * {@code WebsocketClientTransport} on reactor-netty's {@code HttpClient.secure}, with a client certificate, against
 * Sluice's {@link WebsocketServerTransport#secure} on its default path, {@code /rsocket}.
 */
class WssServerInteropTest extends SluiceServerInteropTest {

    @TempDir
    static Path dir;
    private static TestPki.Issued ca;
    private static TestPki.Issued server;
    private static SslContext clientContext;

    @BeforeAll
    static void certificates() throws SSLException {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        TestPki.Issued client = pki.issue(ca, "client", "client-1", List.of());
        clientContext = SslContextBuilder.forClient()
            .trustManager(ca.certFile().toFile())
            .keyManager(client.certFile().toFile(), client.keyFile().toFile())
            .build();
    }

    @Override
    ServerTransport sluiceServerTransport() {
        return WebsocketServerTransport.create("127.0.0.1", 0)
            .secure(TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile()));
    }

    @Override
    ClientTransport javaClientTransport(int port) {
        HttpClient https = HttpClient.create().host("127.0.0.1").port(port)
            .secure(spec -> spec.sslContext(clientContext));
        return WebsocketClientTransport.create(https, WebsocketServerTransport.DEFAULT_PATH);
    }
}
