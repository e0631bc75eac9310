package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * REQUEST_STREAM (0x06): a request for a stream of responses, with the first demand.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                    Stream ID (31), &gt; 0                      |
 * +-----------+-+-+-+-------------+-------------------------------+
 * |Type = 0x06|0|M|F|    Flags    |
 * +-+-----------------------------+-------------------------------+
 * |0|                 Initial Request N (31), &gt; 0                  |
 * +-+---------------------------------------------+---------------+
 * |      Metadata Length (24), only if M          | Metadata     ...
 * +-----------------------------------------------+---------------+
 * |                 Data, up to the end of the frame            ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Demand is a {@code long} in the API: {@link #initialRequestN} reads the wire's 2^31-1 as
 * {@link Long#MAX_VALUE} (unbounded), and the encoder writes anything &ge; 2^31-1 as 2^31-1. F marks the first
 * fragment of a fragmented request. Metadata and data follow {@link PayloadSection}'s rule from
 * {@link #PAYLOAD_START}.
 *
 * <p>Readers trust the frame (check untrusted input with {@link FrameValidator}) and allocate nothing; encoders
 * borrow their buffers and check every argument before writing. Stateless; thread-safe.
 */
public final class RequestStreamFrame {

    /** Offset of the initial request N field from the frame start. */
    public static final int INITIAL_REQUEST_N_OFFSET = PayloadBearingLayout.FIELD_OFFSET;
    /** Offset of the payload section from the frame start: 10, after the initial request N. */
    public static final int PAYLOAD_START = PayloadBearingLayout.payloadStart(FrameType.REQUEST_STREAM);

    private RequestStreamFrame() {
    }

    /**
     * Appends a REQUEST_STREAM frame at {@code out.writerIndex()}.
     *
     * @param streamId the request's stream, &gt; 0
     * @param follows whether more fragments follow (F)
     * @param initialRequestN the first demand, &ge; 1; {@link Long#MAX_VALUE} (or anything &ge; 2^31-1) is sent
     *     as 2^31-1, which peers read as unbounded
     * @param metadata borrowed; null for no metadata (M clear), empty for empty metadata (M set)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if {@code streamId <= 0}, {@code initialRequestN < 1}, or the frame would
     *     exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, long initialRequestN, ByteBuf metadata,
            ByteBuf data) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.REQUEST_STREAM, follows ? FrameFlags.FOLLOWS : 0,
                initialRequestN, metadata, data);
    }

    /**
     * Appends a REQUEST_STREAM frame whose metadata and data are ranges of other buffers (first fragment of a
     * fragmented request, without slices).
     *
     * @param metadataLength metadata bytes, or -1 for no metadata (M clear)
     * @see PayloadSection#encode(ByteBuf, ByteBuf, int, int, ByteBuf, int, int)
     */
    public static int encode(ByteBuf out, int streamId, boolean follows, long initialRequestN, ByteBuf metadata,
            int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return PayloadBearingLayout.encode(out, streamId, FrameType.REQUEST_STREAM, follows ? FrameFlags.FOLLOWS : 0,
                initialRequestN, metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
    }

    /** The length the buffer form of {@code encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, long initialRequestN, ByteBuf metadata,
            ByteBuf data) {
        return encodedLength(metadata, data);
    }

    /** The length of a REQUEST_STREAM frame with these borrowed buffers. Saturates, never throws. */
    public static int encodedLength(ByteBuf metadata, ByteBuf data) {
        return PayloadBearingLayout.encodedLength(FrameType.REQUEST_STREAM, metadata, data);
    }

    /** The length the range form of {@code encode} writes. Saturates, never throws. */
    public static int encodedLength(int streamId, boolean follows, long initialRequestN, ByteBuf metadata,
            int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        return encodedLength(metadataLength, dataLength);
    }

    /** The length of a REQUEST_STREAM frame with {@code metadataLength} (-1 for none) and {@code dataLength}. */
    public static int encodedLength(int metadataLength, int dataLength) {
        return PayloadBearingLayout.encodedLength(FrameType.REQUEST_STREAM, metadataLength, dataLength);
    }

    /** Whether more fragments of this request follow (F). */
    public static boolean follows(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.FOLLOWS);
    }

    /** The first demand: the u31 field, with 2^31-1 read as {@link Long#MAX_VALUE} (unbounded). */
    public static long initialRequestN(ByteBuf buf, int off) {
        return Demand.fromWire(buf.getInt(off + INITIAL_REQUEST_N_OFFSET));
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
}
