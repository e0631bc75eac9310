package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * KEEPALIVE (0x03): a liveness probe (R set) or its answer (R clear), on stream 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+-+-------------+-------------------------------+
 * |Type = 0x03|0|0|R|    Flags    |
 * +-+---------+-+-+-+-------------+-------------------------------+
 * |0|               Last Received Position (63, high)             |
 * +-+-------------------------------------------------------------+
 * |                  Last Received Position (low)                 |
 * +---------------------------------------------------------------+
 * |             Data, up to the end of the frame                ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The answer to R=1 must echo the data, which is how an 8-byte timestamp in the data measures round-trip time
 * with any compliant peer. The position is 0 when resumption is not used.
 *
 * <p>Readers trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class KeepAliveFrame {

    /** Offset of the last-received-position field from the frame start. */
    public static final int LAST_RECEIVED_POSITION_OFFSET = FrameHeader.SIZE;
    /** Offset of the data from the frame start; also the minimum frame length. */
    public static final int DATA_OFFSET = LAST_RECEIVED_POSITION_OFFSET + 8;

    private KeepAliveFrame() {
    }

    /**
     * Appends a KEEPALIVE frame at {@code out.writerIndex()}.
     *
     * @param respond whether the peer must answer (R)
     * @param lastReceivedPosition resume position, &ge; 0 (0 without resumption)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if {@code lastReceivedPosition < 0} or the frame would exceed
     *     {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, boolean respond, long lastReceivedPosition, ByteBuf data) {
        Checks.notNegative("lastReceivedPosition", lastReceivedPosition);
        int length = Checks.frameLength(encodedLength(respond, lastReceivedPosition, data), FrameType.KEEPALIVE);
        out.ensureWritable(length);
        FrameHeader.encode(out, 0, FrameType.KEEPALIVE, respond ? FrameFlags.RESPOND : 0);
        out.writeLong(lastReceivedPosition);
        if (data != null) {
            out.writeBytes(data, data.readerIndex(), data.readableBytes());
        }
        return length;
    }

    /** The length {@link #encode} writes. Saturates, never throws. */
    public static int encodedLength(boolean respond, long lastReceivedPosition, ByteBuf data) {
        return Checks.saturatedInt((long) DATA_OFFSET + Checks.readable(data));
    }

    /** Whether the receiver must answer with a KEEPALIVE without R that echoes the data. */
    public static boolean respond(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.RESPOND);
    }

    /** The sender's last received resume position (u63, top bit masked). */
    public static long lastReceivedPosition(ByteBuf buf, int off) {
        return buf.getLong(off + LAST_RECEIVED_POSITION_OFFSET) & Long.MAX_VALUE;
    }

    /** The absolute index of the first data byte. */
    public static int dataOffset(ByteBuf buf, int off) {
        return off + DATA_OFFSET;
    }

    /** The data length, 0 or more. */
    public static int dataLength(ByteBuf buf, int off, int len) {
        return len - DATA_OFFSET;
    }
}
