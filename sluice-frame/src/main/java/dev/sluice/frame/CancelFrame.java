package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * CANCEL (0x09): the requester cancels an outstanding request. Header only.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                    Stream ID (31), &gt; 0                      |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x09|0|0|     Flags     |
 * +-------------------------------+
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class CancelFrame {

    /** Length of every CANCEL frame. */
    public static final int LENGTH = FrameHeader.SIZE;

    private CancelFrame() {
    }

    /**
     * Appends a CANCEL frame at {@code out.writerIndex()}.
     *
     * @param streamId the stream to cancel, &gt; 0
     * @return {@link #LENGTH}
     * @throws IllegalArgumentException if {@code streamId <= 0}
     */
    public static int encode(ByteBuf out, int streamId) {
        Checks.streamIdPositive(streamId, FrameType.CANCEL);
        return FrameHeader.encode(out, streamId, FrameType.CANCEL, 0);
    }

    /** {@link #LENGTH}, whatever the stream. */
    public static int encodedLength(int streamId) {
        return LENGTH;
    }
}
