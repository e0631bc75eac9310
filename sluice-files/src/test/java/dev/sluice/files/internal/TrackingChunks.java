package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** {@link ByteBufChunks} that remembers every chunk it allocated, so a test can check that each was released. */
final class TrackingChunks extends ForwardingChunks<ByteBuf> {

    final List<ByteBuf> allocated = new CopyOnWriteArrayList<>();

    TrackingChunks() {
        super(new ByteBufChunks(ByteBufAllocator.DEFAULT));
    }

    @Override
    public ByteBuf allocate(int capacity) {
        ByteBuf b = super.allocate(capacity);
        allocated.add(b);
        return b;
    }

    /** How many of the allocated chunks are still unreleased. */
    long live() {
        return allocated.stream().filter(b -> b.refCnt() > 0).count();
    }
}
