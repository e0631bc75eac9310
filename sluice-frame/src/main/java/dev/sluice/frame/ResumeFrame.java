package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * RESUME (0x0D): the client asks to resume an earlier connection identified by its token, on stream 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x0D|0|0|     Flags     |
 * +-------------------------------+-------------------------------+
 * |        Major Version          |         Minor Version         |
 * +-------------------------------+-------------------------------+
 * |      Token Length (16)        |  Resume Identification Token ...
 * +-+-----------------------------+-------------------------------+
 * |0|         Last Received Server Position (63, 8 bytes)       ...
 * +-+-------------------------------------------------------------+
 * |0|        First Available Client Position (63, 8 bytes)      ...
 * +-+-------------------------------------------------------------+
 * </pre>
 *
 * <p>Positions count bytes of stream frames sent in one direction (see the spec's "implied position"). Readers
 * trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class ResumeFrame {

    /** Version sent by {@link #encode}: 1.0, as in SETUP. */
    public static final int VERSION_MAJOR = 1;
    /** Minor part of the version sent. */
    public static final int VERSION_MINOR = 0;

    /** Offset of the major version from the frame start. */
    public static final int MAJOR_VERSION_OFFSET = FrameHeader.SIZE;
    /** Offset of the minor version from the frame start. */
    public static final int MINOR_VERSION_OFFSET = MAJOR_VERSION_OFFSET + 2;
    /** Offset of the token length from the frame start. */
    public static final int TOKEN_LENGTH_OFFSET = MINOR_VERSION_OFFSET + 2;
    /** Offset of the token from the frame start. */
    public static final int TOKEN_OFFSET = TOKEN_LENGTH_OFFSET + 2;
    /** Length of a RESUME frame with an empty token: the minimum. */
    public static final int MIN_LENGTH = TOKEN_OFFSET + 16;
    /** The largest token the 16-bit length can carry. */
    public static final int MAX_TOKEN_LENGTH = 0xFFFF;

    private ResumeFrame() {
    }

    /**
     * Appends a RESUME frame (version 1.0) at {@code out.writerIndex()}.
     *
     * @param resumeToken borrowed; the token given in SETUP, at most {@link #MAX_TOKEN_LENGTH} bytes
     * @param lastReceivedServerPosition &ge; 0
     * @param firstAvailableClientPosition &ge; 0
     * @return the frame length written
     * @throws IllegalArgumentException if the token is null or too long, or a position is negative
     */
    public static int encode(ByteBuf out, ByteBuf resumeToken, long lastReceivedServerPosition,
            long firstAvailableClientPosition) {
        if (resumeToken == null) {
            throw new IllegalArgumentException("resumeToken is null");
        }
        if (resumeToken.readableBytes() > MAX_TOKEN_LENGTH) {
            throw new IllegalArgumentException("resumeToken length " + resumeToken.readableBytes() + " exceeds "
                    + MAX_TOKEN_LENGTH);
        }
        Checks.notNegative("lastReceivedServerPosition", lastReceivedServerPosition);
        Checks.notNegative("firstAvailableClientPosition", firstAvailableClientPosition);
        int length = encodedLength(resumeToken, lastReceivedServerPosition, firstAvailableClientPosition);
        out.ensureWritable(length);
        FrameHeader.encode(out, 0, FrameType.RESUME, 0);
        out.writeShort(VERSION_MAJOR);
        out.writeShort(VERSION_MINOR);
        out.writeShort(resumeToken.readableBytes());
        out.writeBytes(resumeToken, resumeToken.readerIndex(), resumeToken.readableBytes());
        out.writeLong(lastReceivedServerPosition);
        out.writeLong(firstAvailableClientPosition);
        return length;
    }

    /** The length {@link #encode} writes. */
    public static int encodedLength(ByteBuf resumeToken, long lastReceivedServerPosition,
            long firstAvailableClientPosition) {
        return MIN_LENGTH + Checks.readable(resumeToken);
    }

    /** The major version. */
    public static int majorVersion(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + MAJOR_VERSION_OFFSET);
    }

    /** The minor version. */
    public static int minorVersion(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + MINOR_VERSION_OFFSET);
    }

    /** The token length in bytes. */
    public static int resumeTokenLength(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + TOKEN_LENGTH_OFFSET);
    }

    /** The absolute index of the first token byte. */
    public static int resumeTokenOffset(ByteBuf buf, int off) {
        return off + TOKEN_OFFSET;
    }

    /** The last position the client received from the server (u63, top bit masked). */
    public static long lastReceivedServerPosition(ByteBuf buf, int off) {
        return buf.getLong(off + TOKEN_OFFSET + resumeTokenLength(buf, off)) & Long.MAX_VALUE;
    }

    /** The first position the client can still replay (u63, top bit masked). */
    public static long firstAvailableClientPosition(ByteBuf buf, int off) {
        return buf.getLong(off + TOKEN_OFFSET + resumeTokenLength(buf, off) + 8) & Long.MAX_VALUE;
    }
}
