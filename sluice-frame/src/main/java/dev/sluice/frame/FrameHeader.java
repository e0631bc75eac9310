package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * The 6-byte header every RSocket frame starts with.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                         Stream ID (31)                      |
 * +-----------+-+-+---------------+-------------------------------+
 * |Frame Type |I|M|     Flags     |     Depends on Frame Type    ...
 * +-------------------------------+
 * </pre>
 *
 * <p>All fields are big endian. The frame is addressed as {@code (buf, off)}: {@code off} is the absolute index
 * of the first header byte, after any transport length prefix. Readers use absolute gets: they neither move the
 * buffer's indexes nor allocate. They trust the frame to be at least {@link #SIZE} bytes long; check untrusted
 * input with {@link FrameValidator} first.
 *
 * <p>Stateless; thread-safe as long as nobody writes the bytes being read.
 */
public final class FrameHeader {

    /** Length of the header in bytes. */
    public static final int SIZE = 6;

    /**
     * The largest frame the protocol allows, header included and the transport's 3-byte length prefix excluded:
     * 2^24 - 1 = 16,777,215 bytes, whatever the transport.
     */
    public static final int MAX_FRAME_LENGTH = 0xFFFFFF;

    /** Offset of the type-and-flags field from the frame start. */
    public static final int TYPE_AND_FLAGS_OFFSET = 4;

    /** The type sits above the 10 flag bits of the type-and-flags field. */
    static final int TYPE_SHIFT = 10;

    private FrameHeader() {
    }

    /** The stream id, 31 bits: the reserved top bit is masked off. 0 means the connection. */
    public static int streamId(ByteBuf buf, int off) {
        return buf.getInt(off) & 0x7FFFFFFF;
    }

    /** The 6-bit frame type code (see {@link FrameType}). */
    public static int frameType(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + TYPE_AND_FLAGS_OFFSET) >>> TYPE_SHIFT;
    }

    /** The 6-bit frame type in a type-and-flags field read at {@link #TYPE_AND_FLAGS_OFFSET} as an unsigned short. */
    public static int frameType(int typeAndFlags) {
        return typeAndFlags >>> TYPE_SHIFT;
    }

    /** The 10 flag bits (see {@link FrameFlags}). */
    public static int flags(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + TYPE_AND_FLAGS_OFFSET) & FrameFlags.MASK;
    }

    /** Whether every bit of {@code flag} is set in the frame's flags. */
    public static boolean hasFlag(ByteBuf buf, int off, int flag) {
        return (flags(buf, off) & flag) == flag;
    }

    /**
     * Appends a header at {@code out.writerIndex()} and advances it by {@link #SIZE}.
     *
     * @param streamId 0 for the connection, else the stream; must be &ge; 0
     * @param frameType a 6-bit code, 0..63
     * @param flags flag bits within {@link FrameFlags#MASK}
     * @return {@link #SIZE}
     * @throws IllegalArgumentException if a value does not fit its field
     */
    public static int encode(ByteBuf out, int streamId, int frameType, int flags) {
        // Checked here rather than through internal.Checks, which refers to this class: no API class and internal
        // class may depend on each other both ways.
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId < 0: " + streamId);
        }
        if (frameType < 0 || frameType > FrameType.MAX_CODE) {
            throw new IllegalArgumentException("frameType outside 0..63: " + frameType);
        }
        if ((flags & ~FrameFlags.MASK) != 0) {
            throw new IllegalArgumentException("flags outside mask 0x3ff: 0x" + Integer.toHexString(flags));
        }
        out.writeInt(streamId);
        out.writeShort(frameType << TYPE_SHIFT | flags);
        return SIZE;
    }
}
