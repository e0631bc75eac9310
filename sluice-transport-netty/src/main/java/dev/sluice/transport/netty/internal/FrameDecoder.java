package dev.sluice.transport.netty.internal;

import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the TCP byte stream into RSocket frames by their 3-byte length prefix and hands each to the engine as a
 * borrowed {@code (buffer, offset, length)} view: no slice, no message object, no allocation per frame.
 *
 * <p>The engine may retain slices of the cumulation buffer (zero-copy payloads); Netty's merge cumulator then
 * copies into a fresh buffer instead of writing into a shared one, so retained payloads stay intact.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private static final int LENGTH_PREFIX = 3;

    private final int maxFrameLength;
    private FrameHandler handler;
    private boolean failed;
    private boolean closeReported;

    public FrameDecoder(int maxFrameLength) {
        this.maxFrameLength = maxFrameLength;
    }

    /** Sets the receiver; until then nothing is read (auto-read is off). */
    void handler(FrameHandler handler) {
        this.handler = handler;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed || handler == null) {
            in.skipBytes(in.readableBytes());
            return;
        }
        // Checked before each frame, not after: when the channel goes inactive Netty decodes what is still buffered
        // once more, and an engine that closed the connection must not be handed frames after that.
        while (ctx.channel().isActive() && in.readableBytes() >= LENGTH_PREFIX) {
            int start = in.readerIndex();
            int length = in.getUnsignedMedium(start);
            if (length > maxFrameLength) {
                failed = true;
                in.skipBytes(in.readableBytes());
                handler.onTransportError("frame length " + length + " exceeds maxFrameLength=" + maxFrameLength);
                return;
            }
            if (in.readableBytes() < LENGTH_PREFIX + length) {
                return;
            }
            in.readerIndex(start + LENGTH_PREFIX + length);
            handler.onFrame(in, start + LENGTH_PREFIX, length);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
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
        reportClose(null);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        reportClose(cause);
        ctx.close();
    }

    /**
     * Tells the handler once, as {@link FrameHandler#onClose} promises: an exception is reported with its cause, and
     * the close it triggers then finds the handler told.
     */
    private void reportClose(Throwable cause) {
        if (handler != null && !closeReported) {
            closeReported = true;
            handler.onClose(cause);
        }
    }
}
