package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.WebsocketServerTransport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The echo server's browser page is in the jar and served beside the WebSocket endpoint: the page at {@code /} loads
 * its script by the path the script is served at, and the script is the rsocket-js bundle. What the page does in a
 * browser is checked by {@code scripts/check-browser.sh}, in headless Chromium.
 */
class BrowserPageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void thePageAndItsScriptAreServedBesideTheWebsocketEndpoint() throws Exception {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(new EchoService(Long.MAX_VALUE)))
            .bind(BrowserPage.addTo(WebsocketServerTransport.create("127.0.0.1", 0))).block(TIMEOUT);
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            HttpResponse<String> page = http.send(get(server, BrowserPage.PATH), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            assertThat(page.body()).contains("<pre id=\"results\">")
                .contains("<meta name=\"sluice-websocket-path\" content=\"/rsocket\">")
                .contains("<script src=\"" + BrowserPage.SCRIPT_PATH.substring(1) + "\"></script>");

            HttpResponse<String> script = http.send(get(server, BrowserPage.SCRIPT_PATH),
                HttpResponse.BodyHandlers.ofString());
            assertThat(script.statusCode()).isEqualTo(200);
            assertThat(script.headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
            // The bundle: rsocket-js's client and the page's own code, which names the WebSocket path.
            assertThat(script.body()).contains("RSocketClient").contains("/rsocket").contains("requestStream");
        } finally {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }

    private static HttpRequest get(CloseableServer server, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(TIMEOUT)
            .build();
    }

    @Test
    void thePageIsToldTheWebsocketPathOfItsServer() {
        String html = new String(BrowserPage.html("/custom/rs&x\"y"), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(html).contains("<meta name=\"sluice-websocket-path\" content=\"/custom/rs&amp;x&quot;y\">")
            .doesNotContain("content=\"/rsocket\"");
    }

    @Test
    void echoServerOnAWebsocketAddressServesThePageAtItsPath() throws Exception {
        EchoServerCommand cmd = new EchoServerCommand();
        new CommandLine(cmd).parseArgs("--address", "ws://127.0.0.1:0/echo");
        CloseableServer server = cmd.start();
        try {
            HttpResponse<String> page = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()
                .send(get(server, "/"), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<meta name=\"sluice-websocket-path\" content=\"/echo\">");
        } finally {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }
}
