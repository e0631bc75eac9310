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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixed pages beside the WebSocket endpoint ({@link WebsocketServerTransport#page}): a plain GET gets the page, a HEAD
 * its headers, other methods 405, other paths still 404, and upgrades still work, on {@code ws} and {@code wss}. The
 * requests are written by hand over a socket, so the test sees the bytes a browser would.
 */
class WebsocketPageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final byte[] PAGE = "<!doctype html><p>hello</p>\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;
    private CloseableServer running;

    @AfterEach
    void stop() {
        if (running != null) {
            running.dispose();
            running.onClose().block(TIMEOUT);
        }
    }

    private void start(WebsocketServerTransport transport) {
        running = RSocketServer.create(SocketAcceptor.with(new EchoHandler()))
            .bind(transport.page("/", "text/html; charset=utf-8", PAGE)
                .page("/app.js", "text/javascript", "console.log(1)".getBytes(StandardCharsets.US_ASCII)))
            .block(TIMEOUT);
    }

    @Test
    void aGetOfAPageGetsItAndTheUpgradeStillWorks() throws Exception {
        start(WebsocketServerTransport.create("127.0.0.1", 0));
        String answer = exchange(new Socket("127.0.0.1", running.port()), "GET /?v=1 HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n")
            .contains("content-type: text/html; charset=utf-8\r\n", "content-length: " + PAGE.length + "\r\n",
                "connection: close\r\n")
            .endsWith("\r\n\r\n" + new String(PAGE, StandardCharsets.UTF_8));
        assertThat(exchange(new Socket("127.0.0.1", running.port()), "GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n"))
            .contains("content-type: text/javascript\r\n").endsWith("\r\n\r\nconsole.log(1)");
        roundTrip(WebsocketClientTransport.create("127.0.0.1", running.port()));
    }

    @Test
    void headGetsTheHeadersOnlyAndOtherMethodsAreRefused() throws Exception {
        start(WebsocketServerTransport.create("127.0.0.1", 0));
        assertThat(exchange(new Socket("127.0.0.1", running.port()), "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"))
            .startsWith("HTTP/1.1 200 OK\r\n").contains("content-length: " + PAGE.length + "\r\n")
            .endsWith("\r\n\r\n");
        assertThat(exchange(new Socket("127.0.0.1", running.port()),
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"))
            .startsWith("HTTP/1.1 405 Method Not Allowed\r\n")
            .endsWith("only GET and HEAD are served at /, not POST\n");
    }

    @Test
    void otherPathsAreStillNotFound() throws Exception {
        start(WebsocketServerTransport.create("127.0.0.1", 0));
        assertThat(exchange(new Socket("127.0.0.1", running.port()), "GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n"))
            .startsWith("HTTP/1.1 404 Not Found\r\n")
            .endsWith("no WebSocket endpoint at /favicon.ico; RSocket is served at /rsocket\n");
    }

    @Test
    void pagesAreServedOverTlsToo() throws Exception {
        TestPki pki = new TestPki(dir);
        TestPki.Issued ca = pki.ca("ca", "Sluice Test CA");
        TestPki.Issued server = pki.issue(ca, "server", "localhost", List.of("127.0.0.1"));
        start(WebsocketServerTransport.create("127.0.0.1", 0).secure(TlsServer.ofPem(server.certFile(),
            server.keyFile())));
        assertThat(exchange(tlsSocket(ca), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 200 OK\r\n")
            .endsWith(new String(PAGE, StandardCharsets.UTF_8));
        roundTrip(WebsocketClientTransport.create("127.0.0.1", running.port())
            .secure(TlsClient.trusting(ca.certFile())));
    }

    @Test
    void badPagesAreRefusedWithTheValue() {
        WebsocketServerTransport t = WebsocketServerTransport.create("127.0.0.1", 0);
        assertThatThrownBy(() -> t.page("index.html", "text/html", PAGE))
            .hasMessage("path must start with '/' and hold no query, fragment, space or non-ASCII character, got"
                + " 'index.html'");
        assertThatThrownBy(() -> t.page("/", "text/html\r\nX: y", PAGE))
            .hasMessage("contentType must be printable ASCII, got 'text/html\r\nX: y'");
        assertThatThrownBy(() -> t.page("/", "text/html", null))
            .hasMessage("body must not be null (an empty page is an empty array)");
    }

    private SSLSocket tlsSocket(TestPki.Issued ca) throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        return (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", running.port());
    }

    /** Writes {@code request} and reads the answer until the server closes, bounded by the socket timeout. */
    private static String exchange(Socket socket, String request) throws IOException {
        try (socket) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) >= 0; ) {
                answer.write(buf, 0, n);
            }
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    private static void roundTrip(WebsocketClientTransport transport) {
        Connection c = RSocketConnector.create().connect(transport).block(TIMEOUT);
        try {
            Payload reply = c.requestResponse(Payload.create("beside the pages")).block(TIMEOUT);
            assertThat(reply.dataUtf8()).isEqualTo("beside the pages");
            reply.release();
        } finally {
            c.dispose();
        }
    }
}
