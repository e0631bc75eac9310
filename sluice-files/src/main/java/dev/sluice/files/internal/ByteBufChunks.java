package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * Netty {@link ByteBuf} chunks. Reads go into {@link ByteBufAllocator#ioBuffer(int, int) I/O buffers} (direct
 * where the platform allows, so the JDK does not copy through a temporary buffer); writes go straight from the
 * buffer's memory, composite buffers included.
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
    public int write(FileChannel channel, ByteBuf chunk, long position) throws IOException {
        return chunk.readBytes(channel, position, chunk.readableBytes());
    }

    @Override
    public void release(ByteBuf chunk) {
        chunk.release();
    }
}
