package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * A payload whose data and metadata are heap arrays of its own, outside reference counting: {@link #release()} and
 * {@link #retain()} do nothing and the count always reads 1, so forgetting to release one leaks nothing (the
 * garbage collector takes it), and releasing one twice corrupts nothing (no pool ever reuses it). What
 * {@link Payload#copyOf} and {@link PayloadDecoder#COPY} hand out.
 *
 * <p>The buffers wrap the arrays directly, so Netty's leak detector does not track them: there is nothing to leak.
 * Immutable after construction apart from the buffers' reader indexes; safe to read from one thread at a time.
 */
final class CopiedPayload implements Payload {

    private final ByteBuf data;
    /** Null = absent. */
    private final ByteBuf metadata;

    private CopiedPayload(ByteBuf data, ByteBuf metadata) {
        this.data = data;
        this.metadata = metadata;
    }

    /** A copy of {@code source}'s readable data and metadata; {@code source} is borrowed, not released. */
    static CopiedPayload of(Payload source) {
        ByteBuf m = source.hasMetadata() ? copy(source.metadata()) : null;
        return new CopiedPayload(copy(source.data()), m);
    }

    /** A copy of {@code source}, which is then released: how received payloads become copies. */
    static Payload copyAndRelease(Payload source) {
        if (source instanceof CopiedPayload) {
            return source;
        }
        try {
            return of(source);
        } finally {
            source.release();
        }
    }

    private static ByteBuf copy(ByteBuf b) {
        return b.isReadable() ? Unpooled.wrappedBuffer(ByteBufUtil.getBytes(b)) : Unpooled.EMPTY_BUFFER;
    }

    @Override
    public ByteBuf data() {
        return data;
    }

    @Override
    public ByteBuf metadata() {
        return metadata == null ? Unpooled.EMPTY_BUFFER : metadata;
    }

    @Override
    public boolean hasMetadata() {
        return metadata != null;
    }

    /** Always 1: a copy is never freed explicitly. */
    @Override
    public int refCnt() {
        return 1;
    }

    @Override
    public CopiedPayload retain() {
        return this;
    }

    @Override
    public CopiedPayload retain(int increment) {
        return this;
    }

    @Override
    public CopiedPayload touch() {
        return this;
    }

    @Override
    public CopiedPayload touch(Object hint) {
        return this;
    }

    /** Does nothing and returns false (nothing was deallocated): the garbage collector frees a copy. */
    @Override
    public boolean release() {
        return false;
    }

    /** As {@link #release()}. */
    @Override
    public boolean release(int decrement) {
        return false;
    }

    @Override
    public String toString() {
        return "Payload(copy, data=" + data.readableBytes() + "B, metadata="
            + (metadata == null ? "none" : metadata.readableBytes() + "B") + ")";
    }
}
