package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * METADATA_PUSH (0x0C): connection-level metadata, always on stream 0 and always with M set.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x0C|0|1|     Flags     |
 * +-------------------------------+-------------------------------+
 * |        Metadata, up to the end of the frame (no length)     ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The frame carries metadata only, so it has no metadata length field. Readers trust the frame and allocate
 * nothing; stateless; thread-safe.
 */
public final class MetadataPushFrame {

    /** Offset of the metadata from the frame start. */
    public static final int METADATA_OFFSET = FrameHeader.SIZE;

    private MetadataPushFrame() {
    }

    /**
     * Appends a METADATA_PUSH frame at {@code out.writerIndex()}.
     *
     * @param metadata borrowed; null is written as empty metadata (M is set either way)
     * @return the frame length written
     * @throws IllegalArgumentException if the frame would exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, ByteBuf metadata) {
        int length = Checks.frameLength(encodedLength(metadata), FrameType.METADATA_PUSH);
        out.ensureWritable(length);
        FrameHeader.encode(out, 0, FrameType.METADATA_PUSH, FrameFlags.METADATA);
        if (metadata != null) {
            out.writeBytes(metadata, metadata.readerIndex(), metadata.readableBytes());
        }
        return length;
    }

    /** The length {@link #encode} writes. Saturates, never throws. */
    public static int encodedLength(ByteBuf metadata) {
        return Checks.saturatedInt((long) METADATA_OFFSET + Checks.readable(metadata));
    }

    /** The absolute index of the first metadata byte. */
    public static int metadataOffset(ByteBuf buf, int off) {
        return off + METADATA_OFFSET;
    }

    /** The metadata length: everything after the header. */
    public static int metadataLength(ByteBuf buf, int off, int len) {
        return len - METADATA_OFFSET;
    }
}
