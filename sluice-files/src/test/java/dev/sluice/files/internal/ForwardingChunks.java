package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** A {@link ChunkType} that forwards every call to another; tests override what they want to watch or change. */
class ForwardingChunks<T> implements ChunkType<T> {

    private final ChunkType<T> delegate;

    ForwardingChunks(ChunkType<T> delegate) {
        this.delegate = delegate;
    }

    @Override
    public T allocate(int capacity) {
        return delegate.allocate(capacity);
    }

    @Override
    public int writable(T chunk) {
        return delegate.writable(chunk);
    }

    @Override
    public int read(FileChannel channel, T chunk, long position) throws IOException {
        return delegate.read(channel, chunk, position);
    }

    @Override
    public T flip(T chunk) {
        return delegate.flip(chunk);
    }

    @Override
    public int readable(T chunk) {
        return delegate.readable(chunk);
    }

    @Override
    public int write(FileChannel channel, T chunk) throws IOException {
        return delegate.write(channel, chunk);
    }

    @Override
    public int nioBufferCount(T chunk) {
        return delegate.nioBufferCount(chunk);
    }

    @Override
    public int nioBuffers(T chunk, ByteBuffer[] dst, int offset) {
        return delegate.nioBuffers(chunk, dst, offset);
    }

    @Override
    public void release(T chunk) {
        delegate.release(chunk);
    }
}
