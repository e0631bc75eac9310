package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import dev.sluice.frame.internal.Copies;
import dev.sluice.frame.internal.RawWrites;
import io.netty.buffer.ByteBuf;

/**
 * The layout the payload-bearing frames share, and the one place that knows it: a header, for some types one
 * 32-bit field, then a {@link PayloadSection}.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                     Frame header (6 bytes)                  ...
 * +-+-------------------------------------------------------------+
 * |0|  Field (31): REQUEST_STREAM, REQUEST_CHANNEL, EXT only      |
 * +-+-------------------------------------------------------------+
 * |   Payload section: [Metadata Length (24) + Metadata], Data  ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>REQUEST_RESPONSE, REQUEST_FNF and PAYLOAD have no field, so their payload starts 6 bytes into the frame;
 * REQUEST_STREAM and REQUEST_CHANNEL carry their initial request N there and EXT its extended type, so theirs
 * starts at 10. {@link #payloadStart} is where that is decided; the public facades ({@link RequestResponseFrame} and
 * the others) take their {@code PAYLOAD_START} from it, and so do {@link FrameValidator} and {@link FrameReader}.
 *
 * <p>{@link #encode} checks the arguments the way each type needs (stream id, demand, extended type, PAYLOAD's N
 * or C, the ranges, the frame limit) before it writes the first byte, so a refused frame leaves {@code out} as it
 * was. Package-private: the facades are the API. Stateless; thread-safe.
 */
final class PayloadBearingLayout {

    /** Offset of the 32-bit field (initial request N, extended type) from the frame start. */
    static final int FIELD_OFFSET = FrameHeader.SIZE;
    /** Size of the 32-bit field. */
    static final int FIELD_SIZE = 4;

    private PayloadBearingLayout() {
    }

    /** Whether frames of {@code frameType} carry the 32-bit field: REQUEST_STREAM, REQUEST_CHANNEL and EXT. */
    static boolean hasField(int frameType) {
        return frameType == FrameType.REQUEST_STREAM || frameType == FrameType.REQUEST_CHANNEL
                || frameType == FrameType.EXT;
    }

    /** Whether {@code frameType} is one of the six: REQUEST_RESPONSE, _FNF, _STREAM, _CHANNEL, PAYLOAD, EXT. */
    static boolean isPayloadBearing(int frameType) {
        return FrameType.isRequest(frameType) || frameType == FrameType.PAYLOAD || frameType == FrameType.EXT;
    }

    /**
     * Offset of the payload section from the frame start: 10 for a type with the field, else 6.
     *
     * @throws IllegalArgumentException if {@code frameType} is not REQUEST_*, PAYLOAD or EXT
     */
    static int payloadStart(int frameType) {
        if (hasField(frameType)) {
            return FIELD_OFFSET + FIELD_SIZE;
        }
        if (FrameType.isRequest(frameType) || frameType == FrameType.PAYLOAD) {
            return FrameHeader.SIZE;
        }
        throw new IllegalArgumentException("not a payload-bearing frame type: " + FrameType.name(frameType));
    }

    /**
     * Frame length for {@code metadataLength} (-1 for none) and {@code dataLength} bytes. Saturates; never throws
     * for a payload-bearing type.
     */
    static int encodedLength(int frameType, int metadataLength, int dataLength) {
        return Checks.saturatedInt(
                (long) payloadStart(frameType) + PayloadSection.encodedLength(metadataLength, dataLength));
    }

    /** Frame length for borrowed buffers (null metadata = none, null data = empty). Saturates. */
    static int encodedLength(int frameType, ByteBuf metadata, ByteBuf data) {
        return encodedLength(frameType, metadataLength(metadata), Checks.readable(data));
    }

    /** Metadata length argument for a borrowed buffer: -1 for null. */
    static int metadataLength(ByteBuf metadata) {
        return metadata == null ? -1 : metadata.readableBytes();
    }

    /**
     * Checks what the header and field of one frame must satisfy and returns the field's wire value (0 for a type
     * without one): stream id &gt; 0 (&ge; 0 for EXT); demand &ge; 1 for REQUEST_STREAM and REQUEST_CHANNEL,
     * mapped by {@link Demand#toWire}; extended type &gt; 0 for EXT; N or C for PAYLOAD.
     *
     * @param field initial request N or extended type; ignored for the other types
     * @throws IllegalArgumentException naming the broken rule and its value
     */
    static int checkedField(int streamId, int frameType, int flags, long field) {
        switch (frameType) {
            case FrameType.REQUEST_RESPONSE:
            case FrameType.REQUEST_FNF:
                Checks.streamIdPositive(streamId, frameType);
                return 0;
            case FrameType.REQUEST_STREAM:
            case FrameType.REQUEST_CHANNEL:
                Checks.streamIdPositive(streamId, frameType);
                return Demand.toWire("initialRequestN", field);
            case FrameType.PAYLOAD:
                Checks.streamIdPositive(streamId, frameType);
                if ((flags & (FrameFlags.NEXT | FrameFlags.COMPLETE)) == 0) {
                    throw new IllegalArgumentException("PAYLOAD with neither NEXT nor COMPLETE on stream " + streamId);
                }
                return 0;
            case FrameType.EXT:
                Checks.streamIdNotNegative(streamId);
                if (field <= 0) {
                    throw new IllegalArgumentException("extendedType <= 0: " + field);
                }
                return (int) field;
            default:
                throw new IllegalArgumentException("not a payload-bearing frame type: " + FrameType.name(frameType));
        }
    }

    /**
     * Appends one frame whose metadata and data are ranges of other buffers. The M flag is derived from
     * {@code metadataLength >= 0} and must not be in {@code flags}.
     *
     * @param flags the header flags other than M (F, C, N, I as the type defines them)
     * @param field initial request N (REQUEST_STREAM, REQUEST_CHANNEL) or extended type (EXT); else ignored
     * @param metadataLength metadata bytes, or -1 for no metadata (M clear)
     * @return the frame length
     * @throws IllegalArgumentException as {@link #checkedField}, if a range lies outside its buffer's written
     *     bytes, or if the frame would exceed {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    static int encode(ByteBuf out, int streamId, int frameType, int flags, long field, ByteBuf metadata,
            int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        int wireField = checkedField(streamId, frameType, flags, field);
        Checks.metadataRange(metadata, metadataIndex, metadataLength);
        Checks.range("data", data, dataIndex, dataLength);
        int length = Checks.frameLength(encodedLength(frameType, metadataLength, dataLength), frameType);
        out.ensureWritable(length);
        FrameHeader.encode(out, streamId, frameType, metadataLength >= 0 ? flags | FrameFlags.METADATA : flags);
        if (hasField(frameType)) {
            out.writeInt(wireField);
        }
        PayloadSection.encode(out, metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
        return length;
    }

    /**
     * Appends one frame whose arguments the caller has already checked (the fragmenter's whole-frame path): the
     * header, the 32-bit field when the type has one, and the payload section, with no check repeated. Kept flat on
     * purpose: it sits at the bottom of the request path, where every call level counts against the JIT's
     * inlining depth.
     *
     * @param wireField what {@link #checkedField} returned
     */
    static void writeChecked(ByteBuf out, int streamId, int frameType, int flags, int wireField, ByteBuf metadata,
            int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        if (RawWrites.usable(out) && writeRaw(out, streamId, frameType, flags, wireField, metadata, metadataIndex,
                metadataLength, data, dataIndex, dataLength)) {
            return;
        }
        FrameHeader.encode(out, streamId, frameType, metadataLength >= 0 ? flags | FrameFlags.METADATA : flags);
        if (hasField(frameType)) {
            out.writeInt(wireField);
        }
        if (metadataLength >= 0) {
            out.writeMedium(metadataLength);
            if (metadataLength > 0) {
                Copies.append(out, metadata, metadataIndex, metadataLength);
            }
        }
        if (dataLength > 0) {
            Copies.append(out, data, dataIndex, dataLength);
        }
    }

    /**
     * {@link #writeChecked} by address ({@link RawWrites}), for a frame whose metadata and data are short enough to
     * be copied by words and for which {@code out} has room (its callers made it, but a store by address past the
     * buffer would corrupt another one, so it is checked here, once); false, having moved nothing, for any other
     * (the checked path then writes it, or throws as Netty does).
     */
    private static boolean writeRaw(ByteBuf out, int streamId, int frameType, int flags, int wireField,
            ByteBuf metadata, int metadataIndex, int metadataLength, ByteBuf data, int dataIndex, int dataLength) {
        if (dataLength > Copies.WORD_COPY_MAX || metadataLength > Copies.WORD_COPY_MAX) {
            // Decided before anything is written: a larger payload's frame is the checked path's from the start.
            return false;
        }
        int payloadStart = hasField(frameType) ? FIELD_OFFSET + FIELD_SIZE : FrameHeader.SIZE;
        int length = payloadStart + PayloadSection.encodedLength(metadataLength, dataLength);
        if (out.writableBytes() < length) {
            return false;
        }
        long a = RawWrites.writerAddress(out);
        int n = payloadStart;
        if (payloadStart != FrameHeader.SIZE) {
            RawWrites.putInt(a + FIELD_OFFSET, wireField);
        }
        if (metadataLength >= 0) {
            RawWrites.putMedium(a + n, metadataLength);
            n += PayloadSection.METADATA_LENGTH_SIZE;
            if (metadataLength > 0 && !RawWrites.copy(metadata, metadataIndex, metadataLength, a + n)) {
                return false;
            }
            n += metadataLength;
            flags |= FrameFlags.METADATA;
        }
        if (dataLength > 0 && !RawWrites.copy(data, dataIndex, dataLength, a + n)) {
            return false;
        }
        RawWrites.putInt(a, streamId);
        RawWrites.putShort(a + FrameHeader.TYPE_AND_FLAGS_OFFSET, frameType << FrameHeader.TYPE_SHIFT | flags);
        out.writerIndex(out.writerIndex() + length);
        return true;
    }

    /** {@link #encode(ByteBuf, int, int, int, long, ByteBuf, int, int, ByteBuf, int, int)} for borrowed buffers. */
    static int encode(ByteBuf out, int streamId, int frameType, int flags, long field, ByteBuf metadata,
            ByteBuf data) {
        return encode(out, streamId, frameType, flags, field,
                metadata, metadata == null ? 0 : metadata.readerIndex(), metadataLength(metadata),
                data, data == null ? 0 : data.readerIndex(), Checks.readable(data));
    }
}
