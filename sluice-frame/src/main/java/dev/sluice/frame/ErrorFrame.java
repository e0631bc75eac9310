package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * ERROR (0x0B): a failure of one stream, or of the connection when on stream 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                       Stream ID (31)                        |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x0B|0|0|     Flags     |
 * +-----------+-+-+---------------+-------------------------------+
 * |                         Error Code (32)                       |
 * +---------------------------------------------------------------+
 * |        Error Data: UTF-8 message, up to the end of the frame ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Codes are listed in {@link ErrorCodes}. The message is not NUL-terminated and may be empty. Readers trust the
 * frame and allocate nothing, except {@link #message}, which builds a String for error paths.
 *
 * <p>Stateless; thread-safe.
 */
public final class ErrorFrame {

    /** Offset of the error code from the frame start. */
    public static final int ERROR_CODE_OFFSET = FrameHeader.SIZE;
    /** Offset of the message from the frame start; also the minimum frame length. */
    public static final int MESSAGE_OFFSET = ERROR_CODE_OFFSET + 4;

    private ErrorFrame() {
    }

    /**
     * Appends an ERROR frame at {@code out.writerIndex()}, writing the message as UTF-8 straight into {@code out}.
     *
     * @param streamId 0 for a connection error, else the failed stream
     * @param errorCode a code of {@link ErrorCodes}; connection-level codes need stream 0 and the protocol's
     *     stream-level codes a stream &gt; 0 (application codes may use either)
     * @param message null for an empty message; unpaired surrogates are written as '?'
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId < 0}, the code is reserved (0x00000000, 0xFFFFFFFF) or
     *     does not match the stream, or the frame would exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, int errorCode, CharSequence message) {
        Checks.streamIdNotNegative(streamId);
        if (errorCode == 0 || errorCode == 0xFFFFFFFF) {
            throw new IllegalArgumentException("reserved error code: " + ErrorCodes.name(errorCode));
        }
        if (ErrorCodes.isConnectionLevel(errorCode) && streamId != 0) {
            throw new IllegalArgumentException(ErrorCodes.name(errorCode) + " on stream " + streamId
                    + ", must use stream 0");
        }
        if (ErrorCodes.isStreamLevel(errorCode) && streamId == 0) {
            throw new IllegalArgumentException(ErrorCodes.name(errorCode) + " on stream 0, needs a stream > 0");
        }
        int length = Checks.frameLength(encodedLength(streamId, errorCode, message), FrameType.ERROR);
        out.ensureWritable(length);
        FrameHeader.encode(out, streamId, FrameType.ERROR, 0);
        out.writeInt(errorCode);
        if (message != null) {
            // Reserve the exact byte count: plain writeUtf8 reserves 3 bytes per char and would overflow a buffer
            // sized by encodedLength.
            ByteBufUtil.reserveAndWriteUtf8(out, message, length - MESSAGE_OFFSET);
        }
        return length;
    }

    /** The length {@link #encode} writes: the header, the code and the UTF-8 bytes of {@code message}. */
    public static int encodedLength(int streamId, int errorCode, CharSequence message) {
        return Checks.saturatedInt((long) MESSAGE_OFFSET + (message == null ? 0 : ByteBufUtil.utf8Bytes(message)));
    }

    /** The 32-bit error code (see {@link ErrorCodes}). */
    public static int errorCode(ByteBuf buf, int off) {
        return buf.getInt(off + ERROR_CODE_OFFSET);
    }

    /** The absolute index of the first message byte. */
    public static int messageOffset(ByteBuf buf, int off) {
        return off + MESSAGE_OFFSET;
    }

    /** The message length in bytes, 0 or more. */
    public static int messageLength(ByteBuf buf, int off, int len) {
        return len - MESSAGE_OFFSET;
    }

    /** The message decoded as UTF-8 (malformed bytes become U+FFFD). Allocates: for error paths only. */
    public static String message(ByteBuf buf, int off, int len) {
        return buf.toString(off + MESSAGE_OFFSET, len - MESSAGE_OFFSET, StandardCharsets.UTF_8);
    }
}
