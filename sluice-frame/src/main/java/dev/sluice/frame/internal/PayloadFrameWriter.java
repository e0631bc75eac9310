package dev.sluice.frame.internal;

import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.PayloadSection;
import io.netty.buffer.ByteBuf;

/**
 * Writes the frames whose body is an optional 32-bit field followed by a {@link PayloadSection}: the four
 * REQUEST_* types, PAYLOAD and EXT. Every argument is checked before the first byte is written, so a rejected
 * frame leaves {@code out} untouched.
 *
 * <p>Not part of the API. Stateless; thread-safe.
 */
public final class PayloadFrameWriter {

    /** Size of the optional 32-bit field (initial request N, extended type). */
    public static final int FIELD_SIZE = 4;

    private PayloadFrameWriter() {
    }

    /** Frame length for a body of {@code fieldBytes} (0 or 4) plus the section; saturates, never throws. */
    public static int length(int fieldBytes, int metadataLength, int dataLength) {
        return Checks.saturatedInt(
                (long) FrameHeader.SIZE + fieldBytes + PayloadSection.encodedLength(metadataLength, dataLength));
    }

    /**
     * Appends one frame. The M flag is derived from {@code metadataLength >= 0} and must not be in {@code flags}.
     *
     * @param hasField whether the 32-bit {@code field} follows the header
     * @return the frame length
     */
    public static int write(ByteBuf out, int streamId, int frameType, int flags, boolean hasField, int field,
            ByteBuf metadata, int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        Checks.metadataRange(metadata, metadataIndex, metadataLength);
        Checks.range("data", data, dataIndex, dataLength);
        int length = Checks.frameLength(length(hasField ? FIELD_SIZE : 0, metadataLength, dataLength), frameType);
        out.ensureWritable(length);
        FrameHeader.encode(out, streamId, frameType, metadataLength >= 0 ? flags | FrameFlags.METADATA : flags);
        if (hasField) {
            out.writeInt(field);
        }
        PayloadSection.encode(out, metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
        return length;
    }

    /** {@link #write} for borrowed buffers: null metadata means none, null data means empty. */
    public static int write(ByteBuf out, int streamId, int frameType, int flags, boolean hasField, int field,
            ByteBuf metadata, ByteBuf data) {
        return write(out, streamId, frameType, flags, hasField, field,
                metadata, metadata == null ? 0 : metadata.readerIndex(),
                metadata == null ? -1 : metadata.readableBytes(),
                data, data == null ? 0 : data.readerIndex(), Checks.readable(data));
    }

    /** Metadata length argument for a borrowed buffer: -1 for null. */
    public static int metadataLength(ByteBuf metadata) {
        return metadata == null ? -1 : metadata.readableBytes();
    }
}
