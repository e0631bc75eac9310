package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import dev.sluice.frame.internal.Copies;
import io.netty.buffer.ByteBuf;

/**
 * The metadata-and-data tail shared by the frames that carry both: SETUP, REQUEST_RESPONSE, REQUEST_FNF,
 * REQUEST_STREAM, REQUEST_CHANNEL, PAYLOAD and EXT.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-----------------------------------------------+---------------+
 * |        Metadata Length (24), only if M        |  Metadata    ...
 * +-----------------------------------------------+---------------+
 * |                   Data, up to the end of the frame            ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The section starts {@code payloadStart} bytes after the frame start (6 for REQUEST_RESPONSE, REQUEST_FNF and
 * PAYLOAD, 10 for REQUEST_STREAM, REQUEST_CHANNEL and EXT, variable for SETUP). When the header's M flag is clear
 * there is no length field and everything is data. LEASE and METADATA_PUSH carry metadata only and have no length
 * field even with M set; they do not use this class.
 *
 * <p>Readers trust the frame ({@link FrameValidator} checks the length field against the frame) and allocate
 * nothing. Encoders read borrowed buffers from their reader index without moving it or releasing them.
 *
 * <p>Stateless; thread-safe as long as nobody writes the bytes being read.
 */
public final class PayloadSection {

    /** Size of the metadata length field. */
    public static final int METADATA_LENGTH_SIZE = 3;

    /** The largest metadata length the 24-bit field can carry. */
    public static final int MAX_METADATA_LENGTH = 0xFFFFFF;

    private PayloadSection() {
    }

    /** The metadata length in bytes, or -1 when the M flag is clear (no metadata, as opposed to empty metadata). */
    public static int metadataLength(ByteBuf buf, int off, int len, int payloadStart) {
        if (!FrameHeader.hasFlag(buf, off, FrameFlags.METADATA)) {
            return -1;
        }
        return buf.getUnsignedMedium(off + payloadStart);
    }

    /**
     * The absolute index of the first metadata byte, just after the length field. When the M flag is clear there
     * is no metadata; the value is then the start of the data.
     */
    public static int metadataOffset(ByteBuf buf, int off, int payloadStart) {
        if (!FrameHeader.hasFlag(buf, off, FrameFlags.METADATA)) {
            return off + payloadStart;
        }
        return off + payloadStart + METADATA_LENGTH_SIZE;
    }

    /** The absolute index of the first data byte. */
    public static int dataOffset(ByteBuf buf, int off, int len, int payloadStart) {
        if (!FrameHeader.hasFlag(buf, off, FrameFlags.METADATA)) {
            return off + payloadStart;
        }
        return off + payloadStart + METADATA_LENGTH_SIZE + buf.getUnsignedMedium(off + payloadStart);
    }

    /** The data length in bytes, 0 or more: data runs to the end of the frame. */
    public static int dataLength(ByteBuf buf, int off, int len, int payloadStart) {
        return off + len - dataOffset(buf, off, len, payloadStart);
    }

    /**
     * The bytes {@link #encode(ByteBuf, ByteBuf, ByteBuf)} writes for these borrowed buffers: the length field
     * and metadata if {@code metadata} is non-null, then the data. Never throws; saturates at
     * {@link Integer#MAX_VALUE}.
     */
    public static int encodedLength(ByteBuf metadata, ByteBuf data) {
        return encodedLength(metadata == null ? -1 : metadata.readableBytes(), Checks.readable(data));
    }

    /**
     * The bytes a section with {@code metadataLength} bytes of metadata (-1 for none) and {@code dataLength}
     * bytes of data takes. Saturates at {@link Integer#MAX_VALUE}.
     */
    public static int encodedLength(int metadataLength, int dataLength) {
        long n = dataLength;
        if (metadataLength >= 0) {
            n += (long) METADATA_LENGTH_SIZE + metadataLength;
        }
        return Checks.saturatedInt(n);
    }

    /**
     * Appends the section for borrowed buffers at {@code out.writerIndex()}. The caller writes the header and its
     * M flag ({@code metadata != null}).
     *
     * @param metadata null for no metadata, else read from its reader index for its readable bytes
     * @param data null for empty data, else read from its reader index for its readable bytes
     * @return the bytes written
     * @throws IllegalArgumentException if the metadata is longer than {@link #MAX_METADATA_LENGTH}
     */
    public static int encode(ByteBuf out, ByteBuf metadata, ByteBuf data) {
        return encode(out, metadata, metadata == null ? 0 : metadata.readerIndex(),
                metadata == null ? -1 : metadata.readableBytes(),
                data, data == null ? 0 : data.readerIndex(), Checks.readable(data));
    }

    /**
     * Appends the section for byte ranges at {@code out.writerIndex()}: the form a fragmenter uses to emit part of
     * a payload without creating slices.
     *
     * @param metadata source of the metadata; may be null when {@code metadataLength} is -1 or 0
     * @param metadataIndex absolute index of the first metadata byte in {@code metadata}
     * @param metadataLength metadata bytes, or -1 for no metadata (M clear)
     * @param data source of the data; may be null when {@code dataLength} is 0
     * @param dataIndex absolute index of the first data byte in {@code data}
     * @param dataLength data bytes, 0 or more
     * @return the bytes written (saturated at {@link Integer#MAX_VALUE})
     * @throws IllegalArgumentException if a range lies outside its buffer's written bytes or the metadata is
     *     longer than {@link #MAX_METADATA_LENGTH}
     */
    public static int encode(ByteBuf out, ByteBuf metadata, int metadataIndex, int metadataLength,
            ByteBuf data, int dataIndex, int dataLength) {
        Checks.metadataRange(metadata, metadataIndex, metadataLength);
        Checks.range("data", data, dataIndex, dataLength);
        if (metadataLength > MAX_METADATA_LENGTH) {
            throw new IllegalArgumentException("metadata length " + metadataLength + " exceeds "
                    + MAX_METADATA_LENGTH);
        }
        long written = dataLength;
        if (metadataLength >= 0) {
            out.writeMedium(metadataLength);
            if (metadataLength > 0) {
                Copies.append(out, metadata, metadataIndex, metadataLength);
            }
            written += METADATA_LENGTH_SIZE + metadataLength;
        }
        if (dataLength > 0) {
            Copies.append(out, data, dataIndex, dataLength);
        }
        return Checks.saturatedInt(written);
    }
}
