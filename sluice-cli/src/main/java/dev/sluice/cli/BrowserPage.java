package dev.sluice.cli;

import dev.sluice.transport.netty.WebsocketServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The browser page of {@code sluice echo-server} on a WebSocket address: {@code GET /} answers a page whose script
 * (rsocket-js, bundled from {@code browser/} in the repository) connects back to the same host and port on the
 * WebSocket path and runs a request-response and a request-stream with backpressure against the echo service,
 * writing what happened into the page. So {@code sluice echo-server --address ws://127.0.0.1:7000/rsocket} can be
 * opened at {@code http://127.0.0.1:7000/}; {@code scripts/check-browser.sh} does that in headless Chromium.
 *
 * <p>The files are resources of this module, read once on first use.
 */
final class BrowserPage {

    /** Where the page is served. */
    static final String PATH = "/";
    /** Where the page's script is served (the page names it relative to itself). */
    static final String SCRIPT_PATH = "/echo-page.js";

    private static final String RESOURCES = "browser/";

    private BrowserPage() {
    }

    /** What the page says its script connects to, in index.html: replaced by the transport's own path. */
    private static final String PATH_META = "<meta name=\"sluice-websocket-path\" content=\"/rsocket\">";

    /**
     * Adds the page and its script to {@code transport}, beside its WebSocket endpoint; returns it. Call it once the
     * transport's {@linkplain WebsocketServerTransport#path path} is set: the page is told that path.
     */
    static WebsocketServerTransport addTo(WebsocketServerTransport transport) {
        return transport
            .page(PATH, "text/html; charset=utf-8", html(transport.path()))
            .page(SCRIPT_PATH, "text/javascript; charset=utf-8", Files.SCRIPT);
    }

    /** index.html, telling the script to connect to {@code websocketPath}. */
    static byte[] html(String websocketPath) {
        String html = new String(Files.HTML, StandardCharsets.UTF_8);
        if (!html.contains(PATH_META)) {
            throw new IllegalStateException("the browser page's index.html has no " + PATH_META);
        }
        // A path may hold '&', '"', '<' and '>' (not spaces, quotes of other kinds are fine in a quoted attribute).
        String escaped = websocketPath.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;");
        return html.replace(PATH_META, PATH_META.replace("/rsocket", escaped)).getBytes(StandardCharsets.UTF_8);
    }

    /** Read on first use, so that a TCP echo server never loads them. */
    private static final class Files {
        static final byte[] HTML = read("index.html");
        static final byte[] SCRIPT = read("echo-page.js");

        private static byte[] read(String name) {
            try (InputStream in = BrowserPage.class.getResourceAsStream(RESOURCES + name)) {
                if (in == null) {
                    throw new IllegalStateException("the browser page's " + name + " is missing from the sluice"
                        + " jar (resource dev/sluice/cli/" + RESOURCES + name + ")");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the browser page's " + name, e);
            }
        }
    }
}
