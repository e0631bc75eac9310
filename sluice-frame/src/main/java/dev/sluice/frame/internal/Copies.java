package dev.sluice.frame.internal;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Appends a region of one buffer to another, as {@code out.writeBytes(src, index, length)} does, but copies a short
 * region by words. Netty's copy between buffers ends in {@code Unsafe.copyMemory}, a runtime call fenced on both
 * sides, whatever the length: for the few bytes of a small payload it cost more than the rest of writing the frame
 * (about a fifth of the requester's whole request-response path, in-process). A long region still goes through
 * Netty, where that fixed cost is paid once for many bytes.
 *
 * <p>Not part of the API. Stateless; thread-safe.
 */
public final class Copies {

    /** Regions up to this many bytes are copied here by words; longer ones by {@link ByteBuf#writeBytes}. */
    public static final int WORD_COPY_MAX = 32;

    /** An array's bytes read as little-endian longs and ints (plain loads once compiled). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Copies() {
    }

    /**
     * Appends {@code length} bytes of {@code src} from {@code index} to {@code out}, as
     * {@link #append(ByteBuf, ByteBuf, int, int)} does for a buffer; throws as {@link ByteBuf#writeBytes(byte[], int,
     * int)} does for a region outside {@code src}.
     */
    public static void append(ByteBuf out, byte[] src, int index, int length) {
        if (length > WORD_COPY_MAX || index < 0 || length < 0 || index > src.length - length) {
            out.writeBytes(src, index, length);
            return;
        }
        out.ensureWritable(length);
        int w = out.writerIndex();
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            out.setLongLE(w + i, (long) LONGS.get(src, index + i));
        }
        if (length - i >= Integer.BYTES) {
            out.setIntLE(w + i, (int) INTS.get(src, index + i));
            i += Integer.BYTES;
        }
        for (; i < length; i++) {
            out.setByte(w + i, src[index + i]);
        }
        out.writerIndex(w + length);
    }

    /**
     * Appends {@code length} bytes of {@code src} from {@code index} to {@code out}, leaving {@code src}'s indexes
     * alone; throws as {@link ByteBuf#writeBytes(ByteBuf, int, int)} does for a region outside {@code src} or a
     * released buffer.
     */
    public static void append(ByteBuf out, ByteBuf src, int index, int length) {
        if (length > WORD_COPY_MAX) {
            out.writeBytes(src, index, length);
            return;
        }
        out.ensureWritable(length);
        int w = out.writerIndex();
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            out.setLongLE(w + i, src.getLongLE(index + i));
        }
        if (length - i >= Integer.BYTES) {
            out.setIntLE(w + i, src.getIntLE(index + i));
            i += Integer.BYTES;
        }
        for (; i < length; i++) {
            out.setByte(w + i, src.getByte(index + i));
        }
        out.writerIndex(w + length);
    }
}
