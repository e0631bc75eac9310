package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a WebSocket connection after the upgrade (behind Netty's frame decoder) and hands each binary message to
 * the engine as one RSocket frame, a borrowed {@code (buffer, offset, length)} view as {@link FrameHandler} wants.
 * A message split over continuation frames is gathered into one buffer first, bounded by the max frame length.
 *
 * <p>The rest of RFC 6455, as it applies to RSocket: a ping is answered with a pong carrying its data (dropped
 * while the channel is over its write-buffer high-water mark, so that a peer that pings and never reads cannot
 * fill our memory); a pong is ignored; the peer's close is echoed and the connection closed. What cannot be an
 * RSocket frame closes the connection with the status that says why, after one log line and an
 * ERROR[CONNECTION_ERROR] from the engine quoting the same reason:
 * <ul>
 *   <li>1003 (unsupported data): a text message;</li>
 *   <li>1009 (message too big): a message over the max frame length, whether one frame or gathered;</li>
 *   <li>1002 (protocol error), or the decoder's own status: anything Netty's decoder refuses (an unmasked frame
 *       from a client, a fragmented control frame, a reserved opcode...).</li>
 * </ul>
 * A close this side starts for its own reasons (the engine's {@link #close()}) says 1000 (normal closure).
 *
 * <p>Event-loop confined, like the connection it serves.
 */
public final class WebsocketFrameHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(WebsocketFrameHandler.class);
    /** A close frame's reason must fit in 123 bytes (RFC 6455 §5.5); our reasons are ASCII. */
    private static final int MAX_REASON_CHARS = 123;

    private final int maxFrameLength;
    private ChannelHandlerContext ctx;
    private FrameHandler handler;
    /** The fragments of the message being gathered, or null between messages. */
    private ByteBuf message;
    private boolean closing;
    private boolean closeReported;
    private boolean pongWritten;
    private WebSocketCloseStatus closeStatus = WebSocketCloseStatus.NORMAL_CLOSURE;
    private String closeReason = "";

    public WebsocketFrameHandler(int maxFrameLength) {
        this.maxFrameLength = maxFrameLength;
    }

    /**
     * The settings of Netty's frame decoder in front of this handler: frames up to {@code maxFrameLength}, masked
     * from a client and unmasked from a server ({@code server} says which side reads), no extensions, and no close
     * of its own on a protocol error.
     */
    public static WebSocketDecoderConfig decoderConfig(int maxFrameLength, boolean server) {
        return WebSocketDecoderConfig.newBuilder()
            .maxFramePayloadLength(maxFrameLength)
            .expectMaskedFrames(server)
            .allowMaskMismatch(false)
            .allowExtensions(false)
            // This handler closes, after the engine's ERROR frame, with the status the exception carries.
            .closeOnProtocolViolation(false)
            // Text messages are refused whole: nothing to validate.
            .withUTF8Validator(false)
            .build();
    }

    /** Sets the receiver; until then nothing is read (auto-read is off). */
    void handler(FrameHandler handler) {
        this.handler = handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseMessage();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof BinaryWebSocketFrame || msg instanceof ContinuationWebSocketFrame) {
                data((WebSocketFrame) msg);
            } else if (msg instanceof PingWebSocketFrame ping) {
                if (!closing && ctx.channel().isWritable()) {
                    ctx.write(new PongWebSocketFrame(ping.content().retain()), ctx.voidPromise());
                    pongWritten = true;
                }
            } else if (msg instanceof CloseWebSocketFrame close) {
                peerClosed(close);
            } else if (msg instanceof TextWebSocketFrame) {
                fail(WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                    "text message received: RSocket frames travel in binary messages");
            } else if (msg instanceof ByteBuf b && b.isReadable()) {
                // Bytes the HTTP codec held when it was removed: the peer sent them before the upgrade's answer.
                // (A pong, the one frame left, needs nothing.)
                fail(WebSocketCloseStatus.PROTOCOL_ERROR, "data received before the WebSocket upgrade completed");
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void data(WebSocketFrame frame) {
        if (closing || handler == null) {
            return;
        }
        ByteBuf content = frame.content();
        if (message == null) {
            if (frame.isFinalFragment()) {
                deliver(content);
                return;
            }
            message = ctx.alloc().buffer(Math.min(maxFrameLength, Math.max(256, 2 * content.readableBytes())));
        }
        long length = (long) message.readableBytes() + content.readableBytes();
        if (length > maxFrameLength) {
            fail(WebSocketCloseStatus.MESSAGE_TOO_BIG, "WebSocket message of at least " + length
                + " bytes exceeds maxFrameLength=" + maxFrameLength);
            return;
        }
        message.writeBytes(content, content.readerIndex(), content.readableBytes());
        if (frame.isFinalFragment()) {
            ByteBuf whole = message;
            message = null;
            try {
                deliver(whole);
            } finally {
                whole.release();
            }
        }
    }

    /** Hands one whole frame to the engine, unless the connection is going away. */
    private void deliver(ByteBuf frame) {
        if (ctx.channel().isActive()) {
            handler.onFrame(frame, frame.readerIndex(), frame.readableBytes());
        }
    }

    private void peerClosed(CloseWebSocketFrame close) {
        if (closing) {
            return;
        }
        closing = true;
        releaseMessage();
        int code = close.statusCode();
        // Echo the peer's status (RFC 6455 §5.5.1); a close without one is answered without one.
        CloseWebSocketFrame echo = code < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, null);
        ctx.writeAndFlush(echo, ctx.voidPromise());
        ctx.close();
    }

    /**
     * Closes the connection because of what the peer sent: one log line, the engine's ERROR[CONNECTION_ERROR] with
     * {@code reason}, then the close frame with {@code status}.
     */
    private void fail(WebSocketCloseStatus status, String reason) {
        if (closing) {
            return;
        }
        log.info("closing WebSocket connection {} with {} ({}): {}", ctx.channel().remoteAddress(), status.code(),
            status.reasonText(), reason);
        releaseMessage();
        closeStatus = status;
        closeReason = reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS);
        if (handler != null) {
            // The engine writes its ERROR frame and calls close(), which sends the status set above.
            handler.onTransportError(reason);
        }
        close();
    }

    /** Sends a close frame (1000, or the status a failure set) after what was written, and closes. Idempotent. */
    void close() {
        if (closing) {
            ctx.close();
            return;
        }
        closing = true;
        releaseMessage();
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new CloseWebSocketFrame(closeStatus, closeReason), ctx.voidPromise());
        }
        // Not after the write completes: a peer that does not read must not keep the connection open.
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pongWritten) {
            pongWritten = false;
            ctx.flush();
        }
        if (handler != null) {
            handler.onReadComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (handler != null) {
            handler.onWritabilityChanged(ctx.channel().isWritable());
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseMessage();
        reportClose(null);
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException e) {
            WebSocketCloseStatus status = e.closeStatus();
            fail(status, status.code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code()
                ? "WebSocket frame exceeds maxFrameLength=" + maxFrameLength
                : "WebSocket protocol error: " + e.getMessage());
            return;
        }
        reportClose(cause);
        ctx.close();
    }

    /** Tells the handler once, as {@link FrameHandler#onClose} promises. */
    void reportClose(Throwable cause) {
        if (handler != null && !closeReported) {
            closeReported = true;
            handler.onClose(cause);
        }
    }

    private void releaseMessage() {
        if (message != null) {
            message.release();
            message = null;
        }
    }
}
