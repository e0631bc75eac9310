package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * RESUME_OK (0x0E): the server accepts a RESUME, on stream 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x0E|0|0|     Flags     |
 * +-+-----------------------------+-------------------------------+
 * |0|         Last Received Client Position (63, 8 bytes)       ...
 * +-+-------------------------------------------------------------+
 * </pre>
 *
 * <p>Readers trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class ResumeOkFrame {

    /** Offset of the position field from the frame start. */
    public static final int LAST_RECEIVED_CLIENT_POSITION_OFFSET = FrameHeader.SIZE;
    /** Length of every RESUME_OK frame. */
    public static final int LENGTH = LAST_RECEIVED_CLIENT_POSITION_OFFSET + 8;

    private ResumeOkFrame() {
    }

    /**
     * Appends a RESUME_OK frame at {@code out.writerIndex()}.
     *
     * @param lastReceivedClientPosition &ge; 0
     * @return {@link #LENGTH}
     * @throws IllegalArgumentException if the position is negative
     */
    public static int encode(ByteBuf out, long lastReceivedClientPosition) {
        Checks.notNegative("lastReceivedClientPosition", lastReceivedClientPosition);
        out.ensureWritable(LENGTH);
        FrameHeader.encode(out, 0, FrameType.RESUME_OK, 0);
        out.writeLong(lastReceivedClientPosition);
        return LENGTH;
    }

    /** {@link #LENGTH}, whatever the position. */
    public static int encodedLength(long lastReceivedClientPosition) {
        return LENGTH;
    }

    /** The last position the server received from the client (u63, top bit masked). */
    public static long lastReceivedClientPosition(ByteBuf buf, int off) {
        return buf.getLong(off + LAST_RECEIVED_CLIENT_POSITION_OFFSET) & Long.MAX_VALUE;
    }
}
