package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.testkit.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS server picks up renewed certificate files: new connections get the new certificate, open ones keep working,
 * and files that cannot be loaded leave the previous certificate in service with one WARN line. The checks are
 * called directly ({@code reloadIfChanged}), except in the one test of the timer, which waits in a bounded loop.
 */
class TlsReloadTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private TestPki pki;
    private TestPki.Issued ca;
    private Path chain;
    private Path key;
    private TcpServerTransport transport;
    private CloseableServer running;

    @BeforeEach
    void serve() throws IOException {
        pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        TestPki.Issued first = pki.issue(ca, "first", "localhost", List.of("127.0.0.1"));
        chain = dir.resolve("served.pem");
        key = dir.resolve("served.key");
        Files.copy(first.certFile(), chain);
        Files.copy(first.keyFile(), key);
    }

    @AfterEach
    void stop() {
        if (running != null) {
            running.dispose();
            running.onClose().block(TIMEOUT);
        }
    }

    private void start(TlsServer tls) {
        transport = TcpServerTransport.create("127.0.0.1", 0).secure(tls);
        running = RSocketServer.create(SocketAcceptor.with(new EchoHandler())).bind(transport).block(TIMEOUT);
    }

    @Test
    void newConnectionsGetTheRenewedCertificateAndOpenOnesKeepTheirs() throws Exception {
        start(TlsServer.ofPem(chain, key).reloadInterval(Duration.ZERO));
        BigInteger firstSerial = servedSerial();
        Connection open = connect();

        TestPki.Issued renewed = renew();
        assertThat(transport.tlsContext().reloadIfChanged()).isTrue();

        assertThat(servedSerial()).isEqualTo(renewed.certificate().getSerialNumber()).isNotEqualTo(firstSerial);
        assertThat(echo(open, "still open")).isEqualTo("still open");
        Connection fresh = connect();
        assertThat(echo(fresh, "renewed")).isEqualTo("renewed");
        open.dispose();
        fresh.dispose();
        // Nothing changed since: no reload.
        assertThat(transport.tlsContext().reloadIfChanged()).isFalse();
    }

    @Test
    void brokenFilesKeepThePreviousCertificateAndWarnOnce() throws Exception {
        start(TlsServer.ofPem(chain, key).reloadInterval(Duration.ZERO));
        BigInteger firstSerial = servedSerial();
        // A renewal caught half way: the new certificate is in place, its key not yet.
        TestPki.Issued renewed = pki.issue(ca, "renewed", "localhost", List.of("127.0.0.1"));
        replace(renewed.certFile(), chain);

        String warnings = stderrOf(() -> {
            assertThat(transport.tlsContext().reloadIfChanged()).isFalse();
            assertThat(transport.tlsContext().reloadIfChanged()).isFalse();
        });
        assertThat(warnings.lines().filter(l -> l.contains("WARN"))).singleElement().asString()
            .contains("TLS certificate files changed but cannot be loaded, still serving the previous certificate:"
                + " private key " + key + " does not belong to the certificate CN=localhost of " + chain);
        assertThat(servedSerial()).isEqualTo(firstSerial);

        replace(renewed.keyFile(), key);
        assertThat(transport.tlsContext().reloadIfChanged()).isTrue();
        assertThat(servedSerial()).isEqualTo(renewed.certificate().getSerialNumber());
    }

    @Test
    void aKeyFileThatIsNotPemKeepsThePreviousCertificate() throws Exception {
        start(TlsServer.ofPem(chain, key).reloadInterval(Duration.ZERO));
        BigInteger firstSerial = servedSerial();
        Files.writeString(dir.resolve("garbage"), "not a key\n");
        replace(dir.resolve("garbage"), key);
        assertThat(transport.tlsContext().reloadIfChanged()).isFalse();
        assertThat(servedSerial()).isEqualTo(firstSerial);
        assertThat(echo(connect(), "served")).isEqualTo("served");
    }

    @Test
    void theTimerFindsTheRenewal() throws Exception {
        start(TlsServer.ofPem(chain, key).reloadInterval(Duration.ofMillis(20)));
        TestPki.Issued renewed = renew();
        BigInteger served = servedSerial();
        // Bounded: some 10 s at most, however slow the machine; no assertion on how long it took.
        for (int i = 0; i < 500 && !served.equals(renewed.certificate().getSerialNumber()); i++) {
            Thread.sleep(20);
            served = servedSerial();
        }
        assertThat(served).isEqualTo(renewed.certificate().getSerialNumber());
    }

    /** A new certificate and key moved over the served files, as certbot or a Kubernetes secret update does. */
    private TestPki.Issued renew() throws IOException {
        TestPki.Issued renewed = pki.issue(ca, "renewed", "localhost", List.of("127.0.0.1"));
        replace(renewed.keyFile(), key);
        replace(renewed.certFile(), chain);
        return renewed;
    }

    private static void replace(Path from, Path to) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The serial number of the certificate a plain JDK client is shown by the server now. */
    private BigInteger servedSerial() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", running.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private Connection connect() {
        return RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", running.port())
            .secure(TlsClient.trusting(ca.certFile()))).block(TIMEOUT);
    }

    private static String echo(Connection c, String data) {
        Payload reply = c.requestResponse(Payload.create(data)).block(TIMEOUT);
        try {
            return reply.dataUtf8();
        } finally {
            reply.release();
        }
    }

    /** What {@code action} wrote to System.err, where slf4j-simple logs. */
    private static String stderrOf(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
