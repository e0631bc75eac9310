package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** {@link ByteBufChunks} that remembers every chunk it allocated, so a test can check that each was released. */
final class TrackingChunks implements ChunkType<ByteBuf> {

    private final ByteBufChunks delegate = new ByteBufChunks(ByteBufAllocator.DEFAULT);
    final List<ByteBuf> allocated = new CopyOnWriteArrayList<>();

    @Override
    public ByteBuf allocate(int capacity) {
        ByteBuf b = delegate.allocate(capacity);
        allocated.add(b);
        return b;
    }

    /** How many of the allocated chunks are still unreleased. */
    long live() {
        return allocated.stream().filter(b -> b.refCnt() > 0).count();
    }

    @Override
    public int writable(ByteBuf chunk) {
        return delegate.writable(chunk);
    }

    @Override
    public int read(FileChannel channel, ByteBuf chunk, long position) throws IOException {
        return delegate.read(channel, chunk, position);
    }

    @Override
    public ByteBuf flip(ByteBuf chunk) {
        return delegate.flip(chunk);
    }

    @Override
    public int readable(ByteBuf chunk) {
        return delegate.readable(chunk);
    }

    @Override
    public int write(FileChannel channel, ByteBuf chunk, long position) throws IOException {
        return delegate.write(channel, chunk, position);
    }

    @Override
    public void release(ByteBuf chunk) {
        delegate.release(chunk);
    }
}
