package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.DuplexConnection;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The client's side of the WebSocket upgrade (RFC 6455 §4.1), behind Netty's HTTP/1.1 client codec and a small
 * aggregator: sends the request once connected, and on {@code 101 Switching Protocols} hands the channel over as a
 * {@link WebsocketDuplexConnection}; any other answer, a close, or no answer within the timeout fails the connect
 * with a reason a user can act on ({@code upgrade refused: 404 Not Found: no WebSocket endpoint at /x; ...}).
 *
 * <p>The request goes out when the channel becomes active, or, behind an {@link SslHandler}, once the TLS handshake
 * has succeeded; the timeout runs from then. A failed handshake is not this handler's to report: whoever awaits the
 * handshake does, and until the request is sent, failures and the close pass by here unreported. Event-loop
 * confined; one instance per channel.
 */
public final class WebsocketClientUpgrade extends ChannelInboundHandlerAdapter {

    /** Where the outcome goes: exactly one of the two methods is called, once, on the event loop. */
    public interface Outcome {
        void upgraded(DuplexConnection connection);

        /** The upgrade failed for {@code reason}; the channel is being closed. */
        void failed(String reason, Throwable cause);
    }

    /** How much of an error response's body is quoted in the failure. */
    private static final int MAX_BODY_CHARS = 200;

    private final WebSocketClientHandshaker handshaker;
    private final int maxFrameLength;
    private final long timeoutNanos;
    private final Outcome outcome;
    private ScheduledFuture<?> timeout;
    private boolean started;
    private boolean done;

    public WebsocketClientUpgrade(WebSocketClientHandshaker handshaker, int maxFrameLength, long timeoutNanos,
                                  Outcome outcome) {
        this.handshaker = handshaker;
        this.maxFrameLength = maxFrameLength;
        this.timeoutNanos = timeoutNanos;
        this.outcome = outcome;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.pipeline().get(SslHandler.class) == null) {
            start(ctx);
        }
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent handshake && handshake.isSuccess()) {
            start(ctx);
        }
        super.userEventTriggered(ctx, evt);
    }

    private void start(ChannelHandlerContext ctx) {
        if (started) {
            return;
        }
        started = true;
        timeout = ctx.executor().schedule(() -> fail(ctx, "no answer to the WebSocket upgrade within "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", null), timeoutNanos, TimeUnit.NANOSECONDS);
        handshaker.handshake(ctx.channel()).addListener(f -> {
            if (!f.isSuccess()) {
                fail(ctx, "cannot send the WebSocket upgrade request: " + f.cause(), f.cause());
            }
        });
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!done && msg instanceof FullHttpResponse response) {
                answered(ctx, response);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void answered(ChannelHandlerContext ctx, FullHttpResponse response) {
        if (!HttpResponseStatus.SWITCHING_PROTOCOLS.equals(response.status())) {
            String body = response.content().toString(StandardCharsets.UTF_8).strip();
            fail(ctx, "WebSocket upgrade refused: " + response.status()
                + (body.isEmpty() ? "" : ": " + (body.length() <= MAX_BODY_CHARS ? body
                : body.substring(0, MAX_BODY_CHARS) + "...")), null);
            return;
        }
        try {
            // Checks Sec-WebSocket-Accept; puts the WebSocket decoder after the HTTP codec, which goes next turn.
            handshaker.finishHandshake(ctx.channel(), response);
        } catch (WebSocketHandshakeException e) {
            fail(ctx, "WebSocket upgrade failed: " + e.getMessage(), e);
            return;
        }
        done = true;
        cancelTimeout();
        // The HTTP codec, removed next turn, passes the bytes after the 101 on: to the reader, in place of Netty's
        // frame decoder. Nothing has reached that decoder yet.
        WebsocketReader reader = new WebsocketReader(maxFrameLength, false);
        ctx.pipeline().remove(WebSocketFrameDecoder.class);
        ctx.pipeline().replace(this, "sluice-websocket", reader);
        outcome.upgraded(new WebsocketDuplexConnection(ctx.channel(), reader, true));
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!done) {
            ctx.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (started) {
            fail(ctx, "connection closed by the server during the WebSocket upgrade", null);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!started) {
            // The TLS handshake failed: the channel is closing, and the handshake's listener reports why.
            return;
        }
        // TLS failures arrive already in words (TlsErrors): a TLS 1.3 server refuses a client certificate only
        // after the client finished its handshake, so that refusal reaches this handler, not the handshake's.
        fail(ctx, cause instanceof SSLException ? cause.getMessage() : "WebSocket upgrade failed: " + cause, cause);
    }

    private void fail(ChannelHandlerContext ctx, String reason, Throwable cause) {
        if (done) {
            return;
        }
        done = true;
        cancelTimeout();
        ctx.close();
        outcome.failed(reason, cause);
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }
}
