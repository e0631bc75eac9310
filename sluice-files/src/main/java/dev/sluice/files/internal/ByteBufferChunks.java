package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * NIO {@link ByteBuffer} chunks: heap buffers for reading, any buffer for writing. Writing consumes the buffer
 * (advances its position to its limit). There is nothing to release; the garbage collector takes them back.
 *
 * <p>Heap buffers cost the JDK a copy through a cached per-thread direct buffer on every read and write; prefer the
 * {@code ByteBuf} flavour with a pooled allocator for bulk transfers.
 *
 * <p>Stateless and thread-safe.
 */
public final class ByteBufferChunks implements ChunkType<ByteBuffer> {

    /** The only instance. */
    public static final ByteBufferChunks INSTANCE = new ByteBufferChunks();

    private ByteBufferChunks() {
    }

    @Override
    public ByteBuffer allocate(int capacity) {
        return ByteBuffer.allocate(capacity);
    }

    @Override
    public int writable(ByteBuffer chunk) {
        return chunk.remaining();
    }

    @Override
    public int read(FileChannel channel, ByteBuffer chunk, long position) throws IOException {
        return channel.read(chunk, position);
    }

    @Override
    public ByteBuffer flip(ByteBuffer chunk) {
        return chunk.flip();
    }

    @Override
    public int readable(ByteBuffer chunk) {
        return chunk.remaining();
    }

    @Override
    public int write(FileChannel channel, ByteBuffer chunk) throws IOException {
        return channel.write(chunk);
    }

    /** One: the buffer itself. */
    @Override
    public int nioBufferCount(ByteBuffer chunk) {
        return 1;
    }

    /** The buffer itself (no duplicate), so a write from it consumes it, as {@link #write} does. */
    @Override
    public int nioBuffers(ByteBuffer chunk, ByteBuffer[] dst, int offset) {
        dst[offset] = chunk;
        return 1;
    }

    @Override
    public void release(ByteBuffer chunk) {
        // Nothing to give back: heap and direct ByteBuffers are reclaimed by the garbage collector.
    }
}
