package dev.sluice.frame.internal;

import io.netty.buffer.ByteBuf;

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

    private Copies() {
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
