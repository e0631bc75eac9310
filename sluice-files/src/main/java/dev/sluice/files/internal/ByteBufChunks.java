package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * Netty {@link ByteBuf} chunks. Reads go into {@link ByteBufAllocator#ioBuffer(int, int) I/O buffers} (direct
 * where the platform allows, so the JDK does not copy through a temporary buffer); writes go straight from the
 * buffer's memory, composite buffers included, through fresh NIO views of it.
 *
 * <p>Thread-safe if the allocator is (Netty's are).
 */
public final class ByteBufChunks implements ChunkType<ByteBuf> {

    private final ByteBufAllocator allocator;

    /** Chunks allocated from {@code allocator}. */
    public ByteBufChunks(ByteBufAllocator allocator) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return allocator.ioBuffer(capacity, capacity);
    }

    @Override
    public int writable(ByteBuf chunk) {
        return chunk.writableBytes();
    }

    @Override
    public int read(FileChannel channel, ByteBuf chunk, long position) throws IOException {
        return chunk.writeBytes(channel, position, chunk.writableBytes());
    }

    @Override
    public ByteBuf flip(ByteBuf chunk) {
        return chunk;
    }

    @Override
    public int readable(ByteBuf chunk) {
        return chunk.readableBytes();
    }

    @Override
    public int write(FileChannel channel, ByteBuf chunk) throws IOException {
        return chunk.readBytes(channel, chunk.readableBytes());
    }

    @Override
    public int nioBufferCount(ByteBuf chunk) {
        return chunk.nioBufferCount();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The views are new objects, not {@code internalNioBuffer}, which is one object per buffer whose window each
     * caller moves: a source may hand over a buffer it still uses elsewhere (a retained reference, written to a
     * socket by an event loop at the same time), and the writer must not move a window under it. Netty's own
     * {@code getBytes} to a channel takes a duplicate for the same reason.
     */
    @Override
    public int nioBuffers(ByteBuf chunk, ByteBuffer[] dst, int offset) {
        int index = chunk.readerIndex();
        int length = chunk.readableBytes();
        if (chunk.nioBufferCount() == 1) {
            // The common case, without the array nioBuffers would allocate.
            dst[offset] = chunk.nioBuffer(index, length);
            return 1;
        }
        ByteBuffer[] views = chunk.nioBuffers(index, length);
        System.arraycopy(views, 0, dst, offset, views.length);
        return views.length;
    }

    @Override
    public void release(ByteBuf chunk) {
        chunk.release();
    }
}
