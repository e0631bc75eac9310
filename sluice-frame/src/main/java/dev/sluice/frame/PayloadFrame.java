package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * PAYLOAD (0x0A): an element of a stream (N), its completion (C), or both; also every fragment after the first
 * of a fragmented request or payload.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                    Stream ID (31), &gt; 0                      |
 * +-----------+-+-+-+-+-+---------+-------------------------------+
 * |Type = 0x0A|0|M|F|C|N|  Flags  |   Metadata Length (24) if M   |
 * +---------------+---------------+-------------------------------+
 * |   (length)    |                Metadata (if M)              ...
 * +---------------+-----------------------------------------------+
 * |                 Data, up to the end of the frame            ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Valid combinations are N, C and N|C: a PAYLOAD with neither is forbidden (N exists because an element may
 * have empty data). A PAYLOAD with both F and C ignores F. Metadata and data follow {@link PayloadSection}'s rule
 * from {@link #PAYLOAD_START}.
 *
 * <p>Readers trust the frame (check untrusted input with {@link FrameValidator}) and allocate nothing; encoders
 * borrow their buffers and check every argument before writing. Stateless; thread-safe.
 */
public final class PayloadFrame {

    /** Offset of the payload section from the frame start: 6, no field precedes it. */
    public static final int PAYLOAD_START = PayloadBearingLayout.payloadStart(FrameType.PAYLOAD);

    private PayloadFrame() {
    }

    /**
     * Appends a PAYLOAD frame at {@code out.writerIndex()}.
     *
     * @param streamId the stream, &gt; 0
     * @param follows whether more fragments follow (F)
     * @param complete whether the stream completes with this frame (C)
     * @param next whether the frame carries an element (N), possibly with empty data
     * @param metadata borrowed; null for no metadata (M clear), empty for empty metadata (M set)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId <= 0}, neither {@code next} nor {@code complete} is
     *     set, or the frame would exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, boolean complete, boolean next,
            ByteBuf metadata, ByteBuf data) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.PAYLOAD, flags(follows, complete, next), 0,
                metadata, data);
    }

    /**
     * Appends a PAYLOAD frame whose metadata and data are ranges of other buffers: what a fragmenter emits for
     * each fragment without creating slices.
     *
     * @param metadata source of the metadata; may be null when {@code metadataLength} is -1 or 0
     * @param metadataIndex absolute index of the first metadata byte
     * @param metadataLength metadata bytes, or -1 for no metadata (M clear)
     * @param data source of the data; may be null when {@code dataLength} is 0
     * @param dataIndex absolute index of the first data byte
     * @param dataLength data bytes
     * @return the frame length written
     * @throws IllegalArgumentException as the buffer form, or if a range lies outside its buffer
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, boolean complete, boolean next,
            ByteBuf metadata, int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.PAYLOAD, flags(follows, complete, next), 0,
                metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
    }

    /** The length the buffer form of {@code encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, boolean complete, boolean next,
            ByteBuf metadata, ByteBuf data) {
        return encodedLength(metadata, data);
    }

    /** The length of a PAYLOAD frame with these borrowed buffers. Saturates, never throws. */
    public static int encodedLength(ByteBuf metadata, ByteBuf data) {
        return PayloadBearingLayout.encodedLength(FrameType.PAYLOAD, metadata, data);
    }

    /** The length the range form of {@code encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, boolean complete, boolean next,
            ByteBuf metadata, int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return encodedLength(metadataLength, dataLength);
    }

    /** The length of a PAYLOAD frame with {@code metadataLength} (-1 for none) and {@code dataLength} bytes. */
    public static int encodedLength(int metadataLength, int dataLength) {
        return PayloadBearingLayout.encodedLength(FrameType.PAYLOAD, metadataLength, dataLength);
    }

    /** Whether the frame carries an element (N). */
    public static boolean isNext(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.NEXT);
    }

    /** Whether the stream completes with this frame (C). */
    public static boolean isComplete(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.COMPLETE);
    }

    /** Whether more fragments follow (F). Callers should ignore F when {@link #isComplete} is also set. */
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

    private static int flags(boolean follows, boolean complete, boolean next) {
        return (follows ? FrameFlags.FOLLOWS : 0) | (complete ? FrameFlags.COMPLETE : 0)
                | (next ? FrameFlags.NEXT : 0);
    }
}
