package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * REQUEST_RESPONSE (0x04): a request for exactly one response (a PAYLOAD or an ERROR).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                    Stream ID (31), &gt; 0                      |
 * +-----------+-+-+-+-------------+-------------------------------+
 * |Type = 0x04|0|M|F|    Flags    |   Metadata Length (24) if M   |
 * +---------------+---------------+-------------------------------+
 * |   (length)    |                Metadata (if M)              ...
 * +---------------+-----------------------------------------------+
 * |                 Data, up to the end of the frame            ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>F (follows) marks the first fragment of a fragmented request; the rest of it arrives as PAYLOAD frames.
 * Metadata and data follow {@link PayloadSection}'s rule, starting at {@link #PAYLOAD_START}.
 *
 * <p>Readers trust the frame (check untrusted input with {@link FrameValidator}) and allocate nothing; encoders
 * borrow their buffers and check every argument before writing. Stateless; thread-safe.
 */
public final class RequestResponseFrame {

    /** Offset of the payload section from the frame start: 6, no field precedes it. */
    public static final int PAYLOAD_START = PayloadBearingLayout.payloadStart(FrameType.REQUEST_RESPONSE);

    private RequestResponseFrame() {
    }

    /**
     * Appends a REQUEST_RESPONSE frame at {@code out.writerIndex()}.
     *
     * @param streamId the request's stream, &gt; 0
     * @param follows whether more fragments follow (F)
     * @param metadata borrowed; null for no metadata (M clear), empty for empty metadata (M set)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId <= 0} or the frame would exceed
     *     {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, ByteBuf metadata, ByteBuf data) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.REQUEST_RESPONSE, flags(follows), 0,
                metadata, data);
    }

    /**
     * Appends a REQUEST_RESPONSE frame whose metadata and data are ranges of other buffers: what a fragmenter emits for
     * the first fragment without creating slices.
     *
     * @param metadata source of the metadata; may be null when {@code metadataLength} is -1 or 0
     * @param metadataIndex absolute index of the first metadata byte
     * @param metadataLength metadata bytes, or -1 for no metadata (M clear)
     * @param data source of the data; may be null when {@code dataLength} is 0
     * @param dataIndex absolute index of the first data byte
     * @param dataLength data bytes
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId <= 0}, a range lies outside its buffer, or the frame
     *     would exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, ByteBuf metadata, int metadataIndex,
            int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.REQUEST_RESPONSE, flags(follows), 0,
                metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
    }

    /** The length {@link #encode(ByteBuf, int, boolean, ByteBuf, ByteBuf)} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, ByteBuf metadata, ByteBuf data) {
        return encodedLength(metadata, data);
    }

    /** The length of a REQUEST_RESPONSE frame with these borrowed buffers. Saturates, never throws. */
    public static int encodedLength(ByteBuf metadata, ByteBuf data) {
        return PayloadBearingLayout.encodedLength(FrameType.REQUEST_RESPONSE, metadata, data);
    }

    /** The length the range form of {@code encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, ByteBuf metadata, int metadataIndex,
            int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return encodedLength(metadataLength, dataLength);
    }

    /** The length of a REQUEST_RESPONSE frame with {@code metadataLength} (-1 for none) and {@code dataLength}. */
    public static int encodedLength(int metadataLength, int dataLength) {
        return PayloadBearingLayout.encodedLength(FrameType.REQUEST_RESPONSE, metadataLength, dataLength);
    }

    /** Whether more fragments of this request follow (F). */
    public static boolean follows(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.FOLLOWS);
    }

    /** The metadata length, or -1 when the frame has no metadata (M clear). */
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

    private static int flags(boolean follows) {
        return follows ? FrameFlags.FOLLOWS : 0;
    }
}
