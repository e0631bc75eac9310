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
 *
 * <p>Bytes that arrive before the engine installs its handler are kept, not dropped, and decoded once it has: behind
 * TLS the read that completes the handshake may already carry the peer's first frames.
 *
 * <p>A first frame whose length prefix reads as a TLS handshake record ({@code 16 03 0x}: a frame of some 1.4 MB, and
 * never a valid SETUP, whose stream id would then be the record's non-zero length) is a TLS client on a plaintext
 * port: the engine is told so at once, instead of waiting for 1.4 MB that will never come.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private static final int LENGTH_PREFIX = 3;

    /** The length prefixes a TLS handshake record header reads as: content type 22, version 3.0 to 3.4. */
    private static final int TLS_HANDSHAKE_FIRST = 0x160300;
    private static final int TLS_HANDSHAKE_LAST = 0x160304;

    private final int maxFrameLength;
    private FrameHandler handler;
    private boolean failed;
    private boolean closeReported;
    /** Why the channel failed before a handler was installed, told to the handler when it is. */
    private Throwable failedBeforeStart;
    private boolean framesSeen;
    private ChannelHandlerContext ctx;

    public FrameDecoder(int maxFrameLength) {
        this.maxFrameLength = maxFrameLength;
        // Under load nearly every read ends inside a frame, so the buffer is never emptied; Netty's default waits
        // 16 reads before moving the unread tail to the front, and meanwhile grows the buffer by reallocation, each
        // time copying all of it (with new 4 MiB pool chunks zeroed on the way). Moving the tail, less than one
        // frame, after every read keeps the buffer at about the size of a read.
        setDiscardAfterReads(1);
    }

    /** The capacity of the buffer holding bytes not yet decoded (0 if none); for tests. */
    int bufferedCapacity() {
        ByteBuf b = internalBuffer();
        return b.capacity();
    }

    /**
     * Sets the receiver; until then nothing is read (auto-read is off) but what a TLS handshake read, which is kept
     * and decoded in a task of its own, after the caller's. A failure seen before (a TLS alert that arrived with the
     * end of the handshake) is reported to it now; a channel that is no longer active is reported closed.
     */
    void handler(FrameHandler handler) {
        this.handler = handler;
        if (failedBeforeStart != null || ctx != null && !ctx.channel().isActive()) {
            reportClose(failedBeforeStart);
            return;
        }
        if (ctx != null && internalBuffer().isReadable()) {
            ctx.executor().execute(this::decodeKept);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    private void decodeKept() {
        ByteBuf in = internalBuffer();
        if (handler != null && in.isReadable() && !ctx.isRemoved()) {
            decode(ctx, in, null);
            handler.onReadComplete();
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (handler == null) {
            return;
        }
        // Checked before each frame, not after: when the channel goes inactive Netty decodes what is still buffered
        // once more, and an engine that closed the connection must not be handed frames after that.
        while (ctx.channel().isActive() && in.readableBytes() >= LENGTH_PREFIX) {
            int start = in.readerIndex();
            int length = in.getUnsignedMedium(start);
            if (length >= TLS_HANDSHAKE_FIRST && length <= TLS_HANDSHAKE_LAST && !framesSeen) {
                failed = true;
                in.skipBytes(in.readableBytes());
                handler.onTransportError("the peer sent a TLS handshake to this plaintext port: it expects TLS");
                return;
            }
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
            framesSeen = true;
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
        if (handler == null) {
            if (failedBeforeStart == null) {
                failedBeforeStart = cause;
            }
            return;
        }
        if (!closeReported) {
            closeReported = true;
            handler.onClose(cause);
        }
    }
}
