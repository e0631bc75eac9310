package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * LEASE (0x02): the responder grants the requester a number of requests for a period, on stream 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x02|0|M|     Flags     |
 * +-+-----------+-+---------------+-------------------------------+
 * |0|                  Time-To-Live (31), millis                  |
 * +-+-------------------------------------------------------------+
 * |0|                    Number of Requests (31)                  |
 * +-+-------------------------------------------------------------+
 * |   Metadata (if M), up to the end of the frame (no length)   ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The TTL counts from the time of reception; the last LEASE received replaces all earlier ones. The spec says
 * both values must be &gt; 0 but also lets a responder stop all requests with a 0 in either, so 0 is accepted in
 * both directions and means "stop". The frame carries metadata only, so it has no metadata length field even
 * with M set.
 *
 * <p>Readers trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class LeaseFrame {

    /** Offset of the TTL field from the frame start. */
    public static final int TTL_OFFSET = FrameHeader.SIZE;
    /** Offset of the number-of-requests field from the frame start. */
    public static final int NUMBER_OF_REQUESTS_OFFSET = TTL_OFFSET + 4;
    /** Offset of the metadata from the frame start; also the minimum frame length. */
    public static final int METADATA_OFFSET = NUMBER_OF_REQUESTS_OFFSET + 4;

    private LeaseFrame() {
    }

    /**
     * Appends a LEASE frame at {@code out.writerIndex()}.
     *
     * @param ttlMillis validity from reception in milliseconds, &ge; 0 (0 stops requests)
     * @param numberOfRequests requests allowed during the TTL, &ge; 0 (0 stops requests)
     * @param metadata borrowed; null for no metadata (M clear), empty for empty metadata (M set)
     * @return the frame length written
     * @throws IllegalArgumentException if a value is negative or the frame would exceed
     *     {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, int ttlMillis, int numberOfRequests, ByteBuf metadata) {
        Checks.notNegative("ttlMillis", ttlMillis);
        Checks.notNegative("numberOfRequests", numberOfRequests);
        int length = Checks.frameLength(encodedLength(ttlMillis, numberOfRequests, metadata), FrameType.LEASE);
        out.ensureWritable(length);
        FrameHeader.encode(out, 0, FrameType.LEASE, metadata == null ? 0 : FrameFlags.METADATA);
        out.writeInt(ttlMillis);
        out.writeInt(numberOfRequests);
        if (metadata != null) {
            out.writeBytes(metadata, metadata.readerIndex(), metadata.readableBytes());
        }
        return length;
    }

    /** The length {@link #encode} writes. Saturates, never throws. */
    public static int encodedLength(int ttlMillis, int numberOfRequests, ByteBuf metadata) {
        return Checks.saturatedInt((long) METADATA_OFFSET + Checks.readable(metadata));
    }

    /** The time-to-live in milliseconds, counted from reception (u31, top bit masked). */
    public static int ttlMillis(ByteBuf buf, int off) {
        return buf.getInt(off + TTL_OFFSET) & 0x7FFFFFFF;
    }

    /** The number of requests allowed (u31, top bit masked). */
    public static int numberOfRequests(ByteBuf buf, int off) {
        return buf.getInt(off + NUMBER_OF_REQUESTS_OFFSET) & 0x7FFFFFFF;
    }

    /** The absolute index of the first metadata byte. */
    public static int metadataOffset(ByteBuf buf, int off) {
        return off + METADATA_OFFSET;
    }

    /** The metadata length, everything after the fixed fields, or -1 when M is clear. */
    public static int metadataLength(ByteBuf buf, int off, int len) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.METADATA) ? len - METADATA_OFFSET : -1;
    }
}
