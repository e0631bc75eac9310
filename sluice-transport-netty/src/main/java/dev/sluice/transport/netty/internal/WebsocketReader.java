package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a WebSocket connection after the upgrade and hands each binary message to the engine as one RSocket frame,
 * a borrowed {@code (buffer, offset, length)} view of the received bytes as {@link FrameHandler} wants: the headers
 * (layout in {@link WebsocketFramer}) are walked in place and a client's masked payload is unmasked in place, so an
 * unfragmented message costs no copy, no buffer and no object. A message split over continuation frames is gathered
 * into one buffer first, bounded by the max frame length.
 *
 * <p>The rest of RFC 6455, as it applies to RSocket: a ping is answered with a pong carrying its data (dropped while
 * the channel is over its write-buffer high-water mark, so that a peer that pings and never reads cannot fill our
 * memory); a pong is ignored; the peer's close is echoed and the connection closed. What cannot be an RSocket frame
 * closes the connection with the status that says why, after one log line and an ERROR[CONNECTION_ERROR] from the
 * engine quoting the same reason:
 * <ul>
 *   <li>1003 (unsupported data): a text message;</li>
 *   <li>1009 (message too big): a message over the max frame length, one frame (refused from its header, before its
 *       bytes arrive) or gathered;</li>
 *   <li>1002 (protocol error): a frame masked other than RFC 6455 says (a client's must be, a server's must not),
 *       RSV bits (no extension is negotiated), a reserved opcode, a fragmented or oversized control frame, a
 *       continuation out of place, a length not in its shortest encoding, an invalid close status.</li>
 * </ul>
 * A close this side starts for its own reasons (the engine's {@link #close()}) says 1000 (normal closure). Outbound
 * control frames go through Netty's WebSocket encoder, which sits before this handler.
 *
 * <p>Why not Netty's {@code WebSocket13FrameDecoder}: it copies each frame's payload into a buffer of its own and
 * makes a frame object per frame, and it is this transport's inbound hot path.
 *
 * <p>Event-loop confined, like the connection it serves.
 */
public final class WebsocketReader extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(WebsocketReader.class);
    /** A close frame's reason must fit in 123 bytes (RFC 6455 §5.5); our reasons are ASCII. */
    private static final int MAX_REASON_CHARS = 123;
    private static final int MAX_CONTROL_PAYLOAD = 125;

    private final int maxFrameLength;
    private final boolean expectMasked;
    private ChannelHandlerContext ctx;
    private FrameHandler handler;
    /** The fragments of the message being gathered, or null between messages. */
    private ByteBuf message;
    private boolean closing;
    private boolean closeReported;
    private boolean pongWritten;
    private WebSocketCloseStatus closeStatus = WebSocketCloseStatus.NORMAL_CLOSURE;
    private String closeReason = "";

    /**
     * @param maxFrameLength the largest message accepted, in bytes
     * @param server         whether this reads a server's connection: then every frame must be masked, and none
     *                       otherwise
     */
    public WebsocketReader(int maxFrameLength, boolean server) {
        this.maxFrameLength = maxFrameLength;
        this.expectMasked = server;
    }

    /** Sets the receiver; until then nothing is read (auto-read is off), and what was read waits. */
    void handler(FrameHandler handler) {
        this.handler = handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        releaseMessage();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (closing) {
            in.skipBytes(in.readableBytes());
            return;
        }
        // Checked before each frame: when the channel goes inactive Netty decodes what is still buffered once more,
        // and an engine that closed the connection must not be handed frames after that.
        while (handler != null && !closing && ctx.channel().isActive() && in.readableBytes() >= 2) {
            if (!frame(in)) {
                return;
            }
        }
    }

    /** Reads one frame if it is all there; returns false if it is not (or the connection is failing). */
    private boolean frame(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        int b0 = in.getUnsignedByte(start);
        int b1 = in.getUnsignedByte(start + 1);
        boolean fin = (b0 & WebsocketFramer.FIN) != 0;
        int rsv = (b0 & 0x70) >> 4;
        int opcode = b0 & 0x0F;
        boolean masked = (b1 & WebsocketFramer.MASK_BIT) != 0;
        int length7 = b1 & 0x7F;
        String violation = headerViolation(fin, rsv, opcode, masked, length7);
        if (violation != null) {
            return protocolError(violation);
        }
        int header = 2;
        long length = length7;
        if (length7 == WebsocketFramer.LENGTH_16) {
            if (readable < 4) {
                return false;
            }
            length = in.getUnsignedShort(start + 2);
            header = 4;
            if (length <= WebsocketFramer.MAX_7_BIT_LENGTH) {
                return protocolError("invalid data frame length (not using minimal length encoding)");
            }
        } else if (length7 == WebsocketFramer.LENGTH_64) {
            if (readable < 10) {
                return false;
            }
            length = in.getLong(start + 2);
            header = 10;
            if (length < 0) {
                return protocolError("invalid data frame length (negative length)");
            }
            if (length <= 0xFFFF) {
                return protocolError("invalid data frame length (not using minimal length encoding)");
            }
        }
        if (length > maxFrameLength) {
            fail(WebSocketCloseStatus.MESSAGE_TOO_BIG, "WebSocket frame exceeds maxFrameLength=" + maxFrameLength);
            return false;
        }
        if (masked) {
            header += 4;
        }
        int len = (int) length;
        if (readable < header + len) {
            return false;
        }
        int payload = start + header;
        if (masked) {
            WebsocketFramer.mask(in, payload, len, in.getInt(payload - 4));
        }
        in.readerIndex(payload + len);
        switch (opcode) {
            case WebsocketFramer.OPCODE_BINARY -> binary(in, payload, len, fin);
            case WebsocketFramer.OPCODE_CONTINUATION -> continuation(in, payload, len, fin);
            case WebsocketFramer.OPCODE_TEXT -> fail(WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                "text message received: RSocket frames travel in binary messages");
            case WebsocketFramer.OPCODE_PING -> pong(in, payload, len);
            case WebsocketFramer.OPCODE_CLOSE -> peerClosed(in, payload, len);
            default -> {
                // a pong: nothing to do
            }
        }
        return true;
    }

    /** What is wrong with a frame's first two bytes, in the words of Netty's decoder, or null. */
    private String headerViolation(boolean fin, int rsv, int opcode, boolean masked, int length7) {
        if (rsv != 0) {
            return "RSV != 0 and no extension negotiated, RSV:" + rsv;
        }
        if (masked != expectMasked) {
            return "received a frame that is not masked as expected";
        }
        if (opcode >= WebsocketFramer.OPCODE_CLOSE) {
            if (!fin) {
                return "fragmented control frame";
            }
            if (length7 > MAX_CONTROL_PAYLOAD) {
                return "control frame with payload length > 125 octets";
            }
            if (opcode > WebsocketFramer.OPCODE_PONG) {
                return "control frame using reserved opcode " + opcode;
            }
            if (opcode == WebsocketFramer.OPCODE_CLOSE && length7 == 1) {
                return "received close control frame with payload len 1";
            }
            return null;
        }
        if (opcode > WebsocketFramer.OPCODE_BINARY) {
            return "data frame using reserved opcode " + opcode;
        }
        if (opcode == WebsocketFramer.OPCODE_CONTINUATION && message == null) {
            return "received continuation data frame outside fragmented message";
        }
        if (opcode != WebsocketFramer.OPCODE_CONTINUATION && message != null) {
            return "received non-continuation data frame while inside fragmented message";
        }
        return null;
    }

    private void binary(ByteBuf in, int payload, int len, boolean fin) {
        if (fin) {
            handler.onFrame(in, payload, len);
            return;
        }
        message = ctx.alloc().buffer(Math.min(maxFrameLength, Math.max(256, 2 * len)));
        message.writeBytes(in, payload, len);
    }

    private void continuation(ByteBuf in, int payload, int len, boolean fin) {
        long length = (long) message.readableBytes() + len;
        if (length > maxFrameLength) {
            fail(WebSocketCloseStatus.MESSAGE_TOO_BIG, "WebSocket message of at least " + length
                + " bytes exceeds maxFrameLength=" + maxFrameLength);
            return;
        }
        message.writeBytes(in, payload, len);
        if (fin) {
            ByteBuf whole = message;
            message = null;
            try {
                handler.onFrame(whole, whole.readerIndex(), whole.readableBytes());
            } finally {
                whole.release();
            }
        }
    }

    private void pong(ByteBuf in, int payload, int len) {
        if (ctx.channel().isWritable()) {
            // A copy (at most 125 bytes) rather than a slice, which would pin the whole read buffer.
            ByteBuf data = ctx.alloc().buffer(len).writeBytes(in, payload, len);
            ctx.write(new PongWebSocketFrame(data), ctx.voidPromise());
            pongWritten = true;
        }
    }

    private void peerClosed(ByteBuf in, int payload, int len) {
        int code = len >= 2 ? in.getUnsignedShort(payload) : -1;
        if (code >= 0 && !WebSocketCloseStatus.isValidStatusCode(code)) {
            protocolError("invalid close status code " + code);
            return;
        }
        closing = true;
        releaseMessage();
        // Echo the peer's status (RFC 6455 §5.5.1); a close without one is answered without one.
        CloseWebSocketFrame echo = code < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, null);
        ctx.writeAndFlush(echo, ctx.voidPromise());
        ctx.close();
    }

    private boolean protocolError(String violation) {
        fail(WebSocketCloseStatus.PROTOCOL_ERROR, "WebSocket protocol error: " + violation);
        return false;
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
        // The engine writes its ERROR frame and calls close(), which sends the status set above.
        handler.onTransportError(reason);
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
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
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
        super.channelInactive(ctx);
        releaseMessage();
        reportClose(null);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
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
