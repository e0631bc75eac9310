package dev.sluice.transport.netty;

import static dev.sluice.transport.netty.ClientProbe.firstFailure;
import static dev.sluice.transport.netty.ClientProbe.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.testkit.TestPki;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TLS failures of {@link TlsFailureTest}, over WebSocket ({@code wss://}): each fails the connect (or, for a
 * client certificate refused after a TLS 1.3 handshake, the first request) with one line naming the cause, on both
 * providers, and the server goes on serving good clients. A plaintext WebSocket client is answered with an HTTP 400
 * that says to use {@code wss://}. Leaks fail the class (the testkit's leak gate).
 */
class WssFailureTest {

    private static final Duration TIMEOUT = ClientProbe.TIMEOUT;

    @TempDir
    static Path dir;
    private static TestPki.Issued ca;
    private static TestPki.Issued otherCa;
    private static TestPki.Issued server;
    private static TestPki.Issued expired;
    private static TestPki.Issued otherHost;
    private static TestPki.Issued client;
    private static TestPki.Issued strangerClient;

    private final LinkedBlockingQueue<String> refusals = new LinkedBlockingQueue<>();
    private CloseableServer running;

    @BeforeAll
    static void certificates() {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        otherCa = pki.ca("other-ca", "Other CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        Instant now = Instant.now();
        expired = pki.issue(ca, "expired", "expired.test", List.of("localhost", "127.0.0.1"),
            now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)));
        otherHost = pki.issue(ca, "other-host", "other.example", List.of("other.example"));
        client = pki.issue(ca, "client", "client-1", List.of());
        strangerClient = pki.issue(otherCa, "stranger", "stranger", List.of());
    }

    @AfterEach
    void stop() {
        if (running != null) {
            running.dispose();
            running.onClose().block(TIMEOUT);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void plaintextClientIsToldToUseWss(SslProvider provider) throws Exception {
        start(provider, TlsServer.ofPem(server.certFile(), server.keyFile()));
        Throwable e = firstFailure(WebsocketClientTransport.create("127.0.0.1", running.port()));
        assertThat(e).isInstanceOf(ConnectException.class).hasMessage("cannot connect to ws://127.0.0.1:"
            + running.port() + "/rsocket: WebSocket upgrade refused: 400 Bad Request: this server requires TLS:"
            + " connect with wss://");
        assertThat(refusals.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo("not a TLS client (plaintext?): answered 400 'this server requires TLS: connect with wss://'");
        assertStillServes(provider, goodClient());
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void wssClientOnAPlaintextServerFailsAtConnect(SslProvider provider) {
        running = RSocketServer.create(SocketAcceptor.with(new EchoHandler()))
            .bind(WebsocketServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Throwable e = firstFailure(wss(provider, goodClient()));
        assertOneLine(e, "TLS handshake failed: the server did not answer in TLS (a plaintext port?)");
        // The plaintext server goes on serving plaintext clients.
        roundTrip(WebsocketClientTransport.create("127.0.0.1", running.port()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void serverCertificateFromAnUntrustedCa(SslProvider provider) {
        start(provider, TlsServer.ofPem(server.certFile(), server.keyFile()));
        Throwable e = firstFailure(wss(provider, TlsClient.trusting(otherCa.certFile())));
        assertOneLine(e, "TLS handshake failed: certificate not trusted: issuer CN=Sluice Test CA is not a trusted CA");
        assertStillServes(provider, goodClient());
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void expiredServerCertificate(SslProvider provider) {
        start(provider, TlsServer.ofPem(expired.certFile(), expired.keyFile()));
        Throwable e = firstFailure(wss(provider, goodClient()));
        assertOneLine(e, "TLS handshake failed: certificate expired at "
            + expired.certificate().getNotAfter().toInstant() + " (CN=expired.test)");
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void serverCertificateForAnotherHost(SslProvider provider) {
        start(provider, TlsServer.ofPem(otherHost.certFile(), otherHost.keyFile()));
        Throwable e = firstFailure(wss(provider, goodClient()));
        assertOneLine(e, "TLS handshake failed: hostname mismatch: certificate is for other.example, not 127.0.0.1");
        assertStillServes(provider, goodClient().serverName("other.example"));
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void clientWithoutACertificateWhereOneIsRequired(SslProvider provider) throws Exception {
        start(provider, TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile()));
        Throwable e = firstFailure(wss(provider, goodClient()));
        // TLS 1.3: the client has finished its handshake and sent its upgrade request when the refusal arrives; the
        // connect waits for the upgrade's answer, so it is the connect that fails. The JDK's alert is named too.
        assertThat(e).isInstanceOf(ConnectException.class).hasMessageStartingWith("cannot connect to wss://127.0.0.1:"
            + running.port() + "/rsocket: TLS handshake failed: the server requires a client certificate")
            .message().doesNotContain("\n").doesNotContain("Exception");
        assertThat(refusals.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo("peer did not send a client certificate");
        assertStillServes(provider, goodClient().certificate(client.certFile(), client.keyFile()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OPENSSL", "JDK"})
    void clientCertificateFromAnUntrustedCa(SslProvider provider) throws Exception {
        start(provider, TlsServer.ofPem(server.certFile(), server.keyFile()).requireClientCertificates(ca.certFile()));
        Throwable e = firstFailure(wss(provider, goodClient()
            .certificate(strangerClient.certFile(), strangerClient.keyFile())));
        // As over TCP: a client offers no certificate from a CA the server does not name (the JDK never, BoringSSL not
        // always); either way the message names the cause.
        assertThat(e.getMessage()).containsAnyOf(
            "TLS handshake failed: the server requires a client certificate from a CA it trusts, and ours is not",
            "TLS handshake failed: the server rejected our certificate (alert ")
            .doesNotContain("\n").doesNotContain("Exception");
        assertThat(refusals.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isIn(
            "peer did not send a client certificate",
            "client certificate not trusted: issuer CN=Other CA is not a trusted CA");
        assertStillServes(provider, goodClient().certificate(client.certFile(), client.keyFile()));
    }

    private void start(SslProvider provider, TlsServer tls) {
        assumeTrue(provider != SslProvider.OPENSSL || OpenSsl.isAvailable(), "OpenSSL is not available here");
        running = RSocketServer.create(SocketAcceptor.with(new EchoHandler()))
            .bind(WebsocketServerTransport.create("127.0.0.1", 0).secure(tls.withProvider(provider))
                .tlsRefusals(refusals::add))
            .block(TIMEOUT);
    }

    private static TlsClient goodClient() {
        return TlsClient.trusting(ca.certFile());
    }

    private WebsocketClientTransport wss(SslProvider provider, TlsClient tls) {
        assumeTrue(provider != SslProvider.OPENSSL || OpenSsl.isAvailable(), "OpenSSL is not available here");
        return WebsocketClientTransport.create("127.0.0.1", running.port()).secure(tls.withProvider(provider));
    }

    private void assertStillServes(SslProvider provider, TlsClient tls) {
        roundTrip(wss(provider, tls));
    }

    private void assertOneLine(Throwable e, String reason) {
        assertThat(e).isInstanceOf(ConnectException.class)
            .hasMessage("cannot connect to wss://127.0.0.1:" + running.port() + "/rsocket: " + reason);
    }
}
