package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.internal.ObjectPool;

/**
 * The one {@link Payload} implementation: owns a data buffer and an optional metadata buffer and releases both
 * when its own count reaches zero.
 *
 * <p>Instances are pooled (Netty's {@link ObjectPool}, thread-local with cross-thread return), so that receiving
 * a payload allocates nothing at steady state: a released payload must not be touched again, which the
 * reference count enforces for every accessor.
 */
public final class RefCountedPayload extends AbstractReferenceCounted implements Payload {

    private static final ObjectPool<RefCountedPayload> POOL = ObjectPool.newPool(RefCountedPayload::new);

    private final ObjectPool.Handle<RefCountedPayload> handle;
    private ByteBuf data;
    private ByteBuf metadata;

    private RefCountedPayload(ObjectPool.Handle<RefCountedPayload> handle) {
        this.handle = handle;
    }

    /** Takes ownership of both buffers; {@code data} null means empty, {@code metadata} null means absent. */
    public static RefCountedPayload create(ByteBuf data, ByteBuf metadata) {
        RefCountedPayload p = POOL.get();
        p.setRefCnt(1);
        p.data = data == null ? Unpooled.EMPTY_BUFFER : data;
        p.metadata = metadata;
        return p;
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
        ensureAccessible();
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
        ByteBuf d = data;
        ByteBuf m = metadata;
        data = null;
        metadata = null;
        handle.recycle(this);
        d.release();
        if (m != null) {
            m.release();
        }
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return "Payload(released)";
        }
        return "Payload(data=" + data.readableBytes() + "B, metadata="
            + (metadata == null ? "none" : metadata.readableBytes() + "B") + ")";
    }
}
