package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.DuplexConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker13;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of the WebSocket upgrade (RFC 6455 §4.2), behind Netty's HTTP/1.1 codec and a small aggregator:
 * reads one request, and either answers 101 and hands the channel to the acceptor as a
 * {@link WebsocketDuplexConnection}, or answers with an HTTP error and closes. Never waits forever: a peer that has
 * not sent a whole request within the timeout gets 408 and the close.
 *
 * <table>
 *   <caption>Answers to a request that is not an upgrade this server accepts</caption>
 *   <tr><th>request</th><th>status</th></tr>
 *   <tr><td>not parseable as HTTP/1.1</td><td>400 Bad Request</td></tr>
 *   <tr><td>a method other than GET</td><td>405 Method Not Allowed</td></tr>
 *   <tr><td>a path other than the configured one (the query is ignored)</td><td>404 Not Found</td></tr>
 *   <tr><td>no {@code Upgrade: websocket}, no {@code Connection: Upgrade}, or no {@code Sec-WebSocket-Key}</td>
 *       <td>400 Bad Request</td></tr>
 *   <tr><td>{@code Sec-WebSocket-Version} other than 13</td>
 *       <td>426 Upgrade Required, with {@code Sec-WebSocket-Version: 13}</td></tr>
 *   <tr><td>nothing whole within the timeout</td><td>408 Request Timeout</td></tr>
 * </table>
 * Each error response has a one-line {@code text/plain} body saying why, and {@code Connection: close}.
 *
 * <p>A GET or HEAD of a path that has a {@link StaticPage}, without {@code Upgrade: websocket}, is answered
 * {@code 200 OK} with that page (405 for another method), and the connection closed.
 *
 * <p>Reading starts when the channel becomes active, or at once when the handler is added to an active channel (behind
 * TLS, after the handshake); the timeout runs from then. The channel reads only while the request is incomplete
 * (auto-read is off); after the upgrade it reads again once the engine starts the connection. Event-loop confined;
 * one instance per channel.
 */
public final class WebsocketServerUpgrade extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(WebsocketServerUpgrade.class);
    private static final String VERSION = "13";

    private final String path;
    private final int maxFrameLength;
    private final long timeoutNanos;
    private final Map<String, StaticPage> pages;
    private final Consumer<DuplexConnection> acceptor;
    private ScheduledFuture<?> timeout;
    private boolean started;
    private boolean answered;

    /**
     * @param path           the one path upgraded, such as {@code /rsocket}
     * @param maxFrameLength the largest message accepted after the upgrade, in bytes
     * @param timeoutNanos   how long the whole request may take to arrive
     * @param pages          what a plain GET of other paths is answered with, by path
     * @param acceptor       receives the upgraded connection, on the channel's event loop
     */
    public WebsocketServerUpgrade(String path, int maxFrameLength, long timeoutNanos, Map<String, StaticPage> pages,
                                  Consumer<DuplexConnection> acceptor) {
        this.path = path;
        this.maxFrameLength = maxFrameLength;
        this.timeoutNanos = timeoutNanos;
        this.pages = pages;
        this.acceptor = acceptor;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (started) {
            return;
        }
        started = true;
        timeout = ctx.executor().schedule(() -> timedOut(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!answered && msg instanceof FullHttpRequest request) {
                answered = true;
                answer(ctx, request);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!answered) {
            ctx.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimeout();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing {} during the WebSocket upgrade: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private void answer(ChannelHandlerContext ctx, FullHttpRequest request) {
        HttpHeaders headers = request.headers();
        String requestPath = pathOf(request.uri());
        StaticPage page = pages.get(requestPath);
        if (request.decoderResult().isFailure()) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request: "
                + request.decoderResult().cause().getMessage());
        } else if (page != null && !headers.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)) {
            servePage(ctx, request, page);
        } else if (!HttpMethod.GET.equals(request.method())) {
            refuse(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "a WebSocket upgrade is a GET, not "
                + request.method());
        } else if (!requestPath.equals(path)) {
            refuse(ctx, HttpResponseStatus.NOT_FOUND, "no WebSocket endpoint at " + requestPath + "; RSocket is"
                + " served at " + path);
        } else if (!headers.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "not a WebSocket upgrade: no 'Upgrade: websocket' header");
        } else if (!headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "not a WebSocket upgrade: no 'Connection: Upgrade' header");
        } else if (!headers.contains(HttpHeaderNames.SEC_WEBSOCKET_KEY)) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "not a WebSocket upgrade: no Sec-WebSocket-Key header");
        } else if (!VERSION.equals(headers.get(HttpHeaderNames.SEC_WEBSOCKET_VERSION))) {
            refuse(ctx, HttpResponseStatus.UPGRADE_REQUIRED, "unsupported Sec-WebSocket-Version: "
                + headers.get(HttpHeaderNames.SEC_WEBSOCKET_VERSION) + "; this server speaks " + VERSION);
        } else {
            upgrade(ctx, request);
        }
    }

    private void upgrade(ChannelHandlerContext ctx, FullHttpRequest request) {
        // Netty's handshaker installs its own frame decoder, which the reader replaces once the 101 is written.
        WebSocketServerHandshaker13 handshaker = new WebSocketServerHandshaker13(path, null,
            WebSocketDecoderConfig.newBuilder().maxFramePayloadLength(maxFrameLength).build());
        ChannelPromise upgraded = ctx.newPromise();
        try {
            // Answers 101, puts the WebSocket encoder and decoder in place of the HTTP codec and aggregator.
            handshaker.handshake(ctx.channel(), request, null, upgraded);
        } catch (WebSocketHandshakeException e) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage());
            return;
        }
        upgraded.addListener(f -> {
            cancelTimeout();
            if (!f.isSuccess()) {
                ctx.close();
                return;
            }
            WebsocketReader reader = new WebsocketReader(maxFrameLength, true);
            ctx.pipeline().remove(WebSocketFrameDecoder.class);
            ctx.pipeline().replace(this, "sluice-websocket", reader);
            acceptor.accept(new WebsocketDuplexConnection(ctx.channel(), reader, false));
        });
    }

    /** Answers a plain request of a page's path with the page, then closes. */
    private void servePage(ChannelHandlerContext ctx, FullHttpRequest request, StaticPage page) {
        boolean head = HttpMethod.HEAD.equals(request.method());
        if (!head && !HttpMethod.GET.equals(request.method())) {
            refuse(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are served at "
                + pathOf(request.uri()) + ", not " + request.method());
            return;
        }
        cancelTimeout();
        log.debug("serving {} {} to {}", request.method(), request.uri(), ctx.channel().remoteAddress());
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(page.body()));
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, page.contentType())
            .setInt(HttpHeaderNames.CONTENT_LENGTH, page.body().length)
            .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
            .set("X-Content-Type-Options", "nosniff")
            .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    private void timedOut(ChannelHandlerContext ctx) {
        if (!answered) {
            answered = true;
            refuse(ctx, HttpResponseStatus.REQUEST_TIMEOUT, "no WebSocket upgrade request within "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        } else {
            // Answered, but the 101 is still not written: a peer that does not read.
            ctx.close();
        }
    }

    /** Answers {@code status} with {@code reason} as the body, then closes. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason) {
        cancelTimeout();
        log.debug("refusing WebSocket upgrade from {}: {} {}", ctx.channel().remoteAddress(), status, reason);
        ByteBuf body = ByteBufUtil.writeUtf8(ctx.alloc(), reason + "\n");
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
            .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
            .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (status.equals(HttpResponseStatus.UPGRADE_REQUIRED)) {
            response.headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, VERSION);
        }
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    /** The request target's path: what comes before the query, if any. */
    static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }
}
