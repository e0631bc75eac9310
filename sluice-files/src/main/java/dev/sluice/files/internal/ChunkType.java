package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * What the reader and the writer need to know about one kind of chunk ({@code ByteBuf} or {@code ByteBuffer}):
 * how to make one, fill it from a file, drain it into a file, measure it and give it back.
 *
 * <p>A chunk being filled has free space (its "writable" bytes); once {@link #flip flipped} it holds readable bytes,
 * which {@link #write} consumes. To write several chunks with one gathering write, the writer asks for their readable
 * bytes as NIO buffers ({@link #nioBufferCount}, {@link #nioBuffers}) instead. Implementations are stateless apart
 * from their allocator and thread-safe.
 *
 * @param <T> the chunk type
 */
public interface ChunkType<T> {

    /** A new empty chunk with room for exactly {@code capacity} bytes; {@code capacity >= 1}. */
    T allocate(int capacity);

    /** The free space left in a chunk being filled, in bytes. */
    int writable(T chunk);

    /**
     * Reads once from {@code channel} at {@code position} into the chunk's free space.
     *
     * @return the number of bytes read, possibly zero, or -1 at the end of the file
     */
    int read(FileChannel channel, T chunk, long position) throws IOException;

    /** Turns a filled chunk into one whose readable bytes are what was read; returns the chunk to emit. */
    T flip(T chunk);

    /** The readable bytes left in a chunk, i.e. what {@link #write} still has to write. */
    int readable(T chunk);

    /**
     * Writes once from the chunk's readable bytes to {@code channel} at the channel's position (which advances) and
     * consumes what was written. For chunks that {@link #nioBuffers} cannot present.
     *
     * @return the number of bytes written, possibly zero
     */
    int write(FileChannel channel, T chunk) throws IOException;

    /**
     * The most buffers {@link #nioBuffers} puts in for this chunk (it may put fewer), or {@code -1} if the chunk
     * cannot present its bytes as NIO buffers, in which case only {@link #write} can write it.
     */
    int nioBufferCount(T chunk);

    /**
     * Puts NIO buffers whose remaining bytes are, in order, the chunk's readable bytes into {@code dst}, from
     * {@code offset} on, and returns how many it put: at most {@link #nioBufferCount}, which the caller must have
     * room for. Only valid if that count is not {@code -1}.
     *
     * <p>Writing from the buffers advances their positions, and whether that consumes the chunk depends on the
     * type: a {@code ByteBuffer} is its own buffer and is consumed; a {@code ByteBuf} hands out views and its reader
     * index stays put. So the caller measures the chunk ({@link #readable}) before writing, and after writing only
     * releases it. The buffers are valid until then.
     */
    int nioBuffers(T chunk, ByteBuffer[] dst, int offset);

    /** Gives the chunk back (releases a {@code ByteBuf}); the caller must not touch it afterwards. */
    void release(T chunk);
}
