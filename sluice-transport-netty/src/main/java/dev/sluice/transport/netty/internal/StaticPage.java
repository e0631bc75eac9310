package dev.sluice.transport.netty.internal;

/**
 * Fixed content a WebSocket server answers a plain GET with, beside its WebSocket endpoint (see
 * {@link WebsocketServerUpgrade}). The body is shared, not copied: it must not change once served.
 *
 * @param contentType the {@code Content-Type} header, such as {@code text/html; charset=utf-8}
 * @param body        the content
 */
public record StaticPage(String contentType, byte[] body) {
}
