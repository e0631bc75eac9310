package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;

/**
 * The one {@link Payload} implementation: owns a data buffer and an optional metadata buffer and releases both
 * when its own count reaches zero.
 */
public final class RefCountedPayload extends AbstractReferenceCounted implements Payload {

    private final ByteBuf data;
    private final ByteBuf metadata;

    private RefCountedPayload(ByteBuf data, ByteBuf metadata) {
        this.data = data;
        this.metadata = metadata;
    }

    /** Takes ownership of both buffers; {@code data} null means empty, {@code metadata} null means absent. */
    public static RefCountedPayload create(ByteBuf data, ByteBuf metadata) {
        return new RefCountedPayload(data == null ? Unpooled.EMPTY_BUFFER : data, metadata);
    }

    @Override
    public ByteBuf data() {
        ensureAccessible();
        return data;
    }

    @Override
    public ByteBuf metadata() {
        ensureAccessible();
        return metadata == null ? Unpooled.EMPTY_BUFFER : metadata;
    }

    /** The metadata buffer, or null when absent (for the encoder, which must tell absent from empty). */
    public static ByteBuf metadataOrNull(Payload p) {
        return p.hasMetadata() ? p.metadata() : null;
    }

    @Override
    public boolean hasMetadata() {
        return metadata != null;
    }

    private void ensureAccessible() {
        if (refCnt() == 0) {
            throw new io.netty.util.IllegalReferenceCountException(0);
        }
    }

    @Override
    public RefCountedPayload retain() {
        super.retain();
        return this;
    }

    @Override
    public RefCountedPayload retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public RefCountedPayload touch() {
        return touch(null);
    }

    @Override
    public RefCountedPayload touch(Object hint) {
        data.touch(hint);
        if (metadata != null) {
            metadata.touch(hint);
        }
        return this;
    }

    @Override
    protected void deallocate() {
        data.release();
        if (metadata != null) {
            metadata.release();
        }
    }

    @Override
    public String toString() {
        return "Payload(data=" + data.readableBytes() + "B, metadata="
            + (metadata == null ? "none" : metadata.readableBytes() + "B") + ")";
    }
}
