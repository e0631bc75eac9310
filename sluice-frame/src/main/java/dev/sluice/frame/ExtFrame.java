package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * EXT (0x3F): an extension frame; the extended type in the body says what it is.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                       Stream ID (31)                        |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x3F|I|M|     Flags     |
 * +-+-----------------------------+-------------------------------+
 * |0|                   Extended Type (31), &gt; 0                    |
 * +-+---------------------------------------------+---------------+
 * |      Metadata Length (24), only if M          | Metadata     ...
 * +-----------------------------------------------+---------------+
 * |                 Data, up to the end of the frame            ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>I (ignore) lets a receiver that does not know the extended type drop the frame instead of failing the
 * connection; rsocket-java always sets it. The metadata/data layout here is the generic one rsocket-java uses;
 * an extension may define its own body, in which case read the bytes from {@link #PAYLOAD_START} yourself.
 *
 * <p>Readers trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class ExtFrame {

    /** Offset of the extended type from the frame start. */
    public static final int EXTENDED_TYPE_OFFSET = PayloadBearingLayout.FIELD_OFFSET;
    /** Offset of the payload section from the frame start: 10, after the extended type. */
    public static final int PAYLOAD_START = PayloadBearingLayout.payloadStart(FrameType.EXT);

    private ExtFrame() {
    }

    /**
     * Appends an EXT frame at {@code out.writerIndex()}.
     *
     * @param streamId 0 or a stream
     * @param ignorable whether a receiver that does not understand it may ignore it (I)
     * @param extendedType &gt; 0
     * @param metadata borrowed; null for no metadata (M clear)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId < 0}, {@code extendedType <= 0}, or the frame would
     *     exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, boolean ignorable, int extendedType, ByteBuf metadata,
            ByteBuf data) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.EXT, ignorable ? FrameFlags.IGNORE : 0,
                extendedType, metadata, data);
    }

    /** The length {@link #encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean ignorable, int extendedType, ByteBuf metadata,
            ByteBuf data) {
        return PayloadBearingLayout.encodedLength(FrameType.EXT, metadata, data);
    }

    /** Whether a receiver that does not understand the frame may ignore it (I). */
    public static boolean ignorable(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.IGNORE);
    }

    /** The extended type (u31, top bit masked). */
    public static int extendedType(ByteBuf buf, int off) {
        return buf.getInt(off + EXTENDED_TYPE_OFFSET) & 0x7FFFFFFF;
    }

    /** The metadata length, or -1 when M is clear. */
    public static int metadataLength(ByteBuf buf, int off, int len) {
        return PayloadSection.metadataLength(buf, off, len, PAYLOAD_START);
    }

    /** The absolute index of the first metadata byte (see {@link PayloadSection#metadataOffset}). */
    public static int metadataOffset(ByteBuf buf, int off) {
        return PayloadSection.metadataOffset(buf, off, PAYLOAD_START);
    }

    /** The absolute index of the first data byte. */
    public static int dataOffset(ByteBuf buf, int off, int len) {
        return PayloadSection.dataOffset(buf, off, len, PAYLOAD_START);
    }

    /** The data length, 0 or more. */
    public static int dataLength(ByteBuf buf, int off, int len) {
        return PayloadSection.dataLength(buf, off, len, PAYLOAD_START);
    }
}
