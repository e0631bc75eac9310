package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The one {@link Payload} implementation: owns a data buffer and an optional metadata buffer and releases both
 * when its own count reaches zero.
 *
 * <p>Instances are pooled, so that receiving a payload allocates nothing at steady state: a released payload must
 * not be touched again, which the reference count enforces for every accessor. The pool is a plain stack per
 * thread: a payload goes back to the stack of the thread that releases it, with no atomic operation and no
 * hand-back to the thread that took it (Netty's {@code Recycler} does both, and cost a fifth of the event loop's
 * time in request-response). Payloads made on one thread and released on another are simply allocated afresh
 * on the first and dropped past the cap on the second.
 */
final class RefCountedPayload extends AbstractReferenceCounted implements Payload {

    /** Released payloads kept per thread: enough for a read burst's worth of requests. */
    private static final int POOL_CAPACITY = 1024;
    private static final FastThreadLocal<Pool> POOL = new FastThreadLocal<>() {
        @Override
        protected Pool initialValue() {
            return new Pool();
        }
    };

    private ByteBuf data;
    private ByteBuf metadata;

    private RefCountedPayload() {
    }

    /** Takes ownership of both buffers; {@code data} null means empty, {@code metadata} null means absent. */
    static RefCountedPayload create(ByteBuf data, ByteBuf metadata) {
        Pool pool = POOL.get();
        RefCountedPayload p;
        if (pool.size == 0) {
            p = new RefCountedPayload();
        } else {
            p = pool.free[--pool.size];
            p.setRefCnt(1);
        }
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
        Pool pool = POOL.get();
        if (pool.size < POOL_CAPACITY) {
            pool.free[pool.size++] = this;
        }
        d.release();
        if (m != null) {
            m.release();
        }
    }

    /** One thread's released payloads. Thread-confined. */
    private static final class Pool {
        final RefCountedPayload[] free = new RefCountedPayload[POOL_CAPACITY];
        int size;
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
