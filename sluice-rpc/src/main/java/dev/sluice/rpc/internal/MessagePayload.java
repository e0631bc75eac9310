package dev.sluice.rpc.internal;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import dev.sluice.frame.FrameData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * An RPC message on its way out: a payload whose data the engine serializes straight into the frame that carries
 * it ({@link FrameData}), so a call makes no array, buffer or buffer wrapper for its message. The metadata is either
 * a buffer the payload owns (the route with per-call entries) or a method's shared route, which the engine reads in
 * place, so a call without per-call metadata makes no view of it either.
 *
 * <p>Whoever reads the payload another way (an interceptor asking for {@link #data()}) gets the message serialized
 * into a heap buffer on first use, and the route as a view of its own; the frame's bytes are the same.
 *
 * <p>Not thread-safe beyond the reference count, as any payload.
 */
public final class MessagePayload extends FrameData implements Payload {

    private static final AtomicIntegerFieldUpdater<MessagePayload> REF_CNT =
        AtomicIntegerFieldUpdater.newUpdater(MessagePayload.class, "refCnt");

    private final MessageLite message;
    private final int size;
    /** Null: no metadata. */
    private final ByteBuf metadata;
    /** Whether {@link #metadata} is a shared route: never released, never handed out but as a view. */
    private final boolean sharedMetadata;
    /** The message serialized, made on the first {@link #data()}; null until then. */
    private ByteBuf data;
    /** The view of a shared route handed out by {@link #metadata()}; null until then. */
    private ByteBuf metadataView;
    private volatile int refCnt = 1;

    private MessagePayload(MessageLite message, ByteBuf metadata, boolean sharedMetadata) {
        this.message = message;
        // Protobuf remembers the size it computes, so serializing it later does not compute it again.
        this.size = message.getSerializedSize();
        this.metadata = metadata;
        this.sharedMetadata = sharedMetadata;
    }

    /** {@code message} without metadata. */
    public static MessagePayload of(MessageLite message) {
        return new MessagePayload(message, null, false);
    }

    /** {@code message} with {@code metadata}, which the payload takes over and releases. */
    public static MessagePayload withMetadata(MessageLite message, ByteBuf metadata) {
        return new MessagePayload(message, metadata, false);
    }

    /**
     * {@code message} with {@code route} as its metadata: a buffer shared by every call of a method, which this
     * payload neither releases nor moves (read-only and never released is how a route should be made).
     */
    public static MessagePayload withSharedRoute(MessageLite message, ByteBuf route) {
        return new MessagePayload(message, route, true);
    }

    @Override
    public int length() {
        return size;
    }

    @Override
    public void writeTo(ByteBuf out) {
        if (size <= ProtobufCodec.HEAP_MAX) {
            append(out, ProtobufCodec.serializeSmall(message, size), 0, size);
        } else {
            ProtobufCodec.writeLarge(out, message, size);
        }
    }

    @Override
    public ByteBuf data() {
        if (data == null) {
            data = ProtobufCodec.encode(ByteBufAllocator.DEFAULT, message);
        }
        return data;
    }

    @Override
    public int dataLength() {
        return size;
    }

    @Override
    public ByteBuf metadata() {
        if (metadata == null) {
            return Unpooled.EMPTY_BUFFER;
        }
        if (!sharedMetadata) {
            return metadata;
        }
        if (metadataView == null) {
            metadataView = metadata.duplicate();
        }
        return metadataView;
    }

    @Override
    public boolean hasMetadata() {
        return metadata != null;
    }

    @Override
    public ByteBuf metadataBuffer() {
        return metadata == null ? Unpooled.EMPTY_BUFFER : metadata;
    }

    @Override
    public int metadataIndex() {
        return metadata == null ? 0 : metadata.readerIndex();
    }

    @Override
    public int metadataLength() {
        return metadata == null ? 0 : metadata.readableBytes();
    }

    @Override
    public int refCnt() {
        return refCnt;
    }

    @Override
    public MessagePayload retain() {
        return retain(1);
    }

    @Override
    public MessagePayload retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment <= 0: " + increment);
        }
        while (true) {
            int c = refCnt;
            if (c == 0 || c > Integer.MAX_VALUE - increment) {
                throw new IllegalReferenceCountException(c, increment);
            }
            if (REF_CNT.compareAndSet(this, c, c + increment)) {
                return this;
            }
        }
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement <= 0: " + decrement);
        }
        while (true) {
            int c = refCnt;
            if (c < decrement) {
                throw new IllegalReferenceCountException(c, -decrement);
            }
            if (REF_CNT.compareAndSet(this, c, c - decrement)) {
                if (c == decrement) {
                    deallocate();
                    return true;
                }
                return false;
            }
        }
    }

    @Override
    public MessagePayload touch() {
        return this;
    }

    @Override
    public MessagePayload touch(Object hint) {
        return this;
    }

    private void deallocate() {
        if (data != null) {
            data.release();
        }
        if (metadata != null && !sharedMetadata) {
            metadata.release();
        }
    }

    @Override
    public String toString() {
        return "MessagePayload(" + message.getClass().getSimpleName() + ", " + size + " bytes"
            + (metadata == null ? "" : ", metadata " + metadata.readableBytes() + " bytes") + ")";
    }
}
