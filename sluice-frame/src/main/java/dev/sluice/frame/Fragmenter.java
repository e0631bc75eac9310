package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Writes a request or PAYLOAD frame to a {@link FrameSink}, split into fragments when it does not fit the
 * connection's MTU.
 *
 * <p><b>The MTU</b> counts the transport's 3-byte length prefix, as rsocket-java's does: with an MTU of 64 no frame
 * is longer than 61 bytes. 0 means never fragment. A frame that fits is written whole, as its type.
 *
 * <p><b>Fragments</b> are filled to the MTU in order, metadata before data:
 * <ul>
 *   <li>The first fragment is a frame of the requested type (REQUEST_STREAM and REQUEST_CHANNEL with their initial
 *       request N); the others are PAYLOAD frames with N. Every fragment but the last has F.</li>
 *   <li>Each fragment that carries metadata has M and its own metadata length. Data starts in the fragment where
 *       the metadata ends. Empty metadata (M set, length 0) is sent as M with length 0 on the first fragment
 *       only; no metadata (null) means no fragment has M.</li>
 *   <li>C, which REQUEST_CHANNEL (the requester's side completes) and PAYLOAD (the stream completes) may carry,
 *       moves to the last fragment. A PAYLOAD's N stays on the first, so a fragmented PAYLOAD must have N.</li>
 * </ul>
 * For example, an MTU of 64 and a REQUEST_RESPONSE with 100 bytes of metadata and 100 of data:
 * <pre>
 *   REQUEST_RESPONSE  M|F    metadata 52            3 + 6 + 3 + 52     = 64
 *   PAYLOAD           M|F|N  metadata 48, data 4    3 + 6 + 3 + 48 + 4 = 64
 *   PAYLOAD           F|N    data 55                3 + 6 + 55         = 64
 *   PAYLOAD           N      data 41                3 + 6 + 41         = 50
 * </pre>
 *
 * <p>The fragments of one payload must reach the transport back to back on its stream: the caller writes nothing
 * else on that stream in between. Each fragment is a {@code begin}/{@code end} pair on the sink, sized exactly.
 * Buffers are borrowed: read from their reader index, never moved or released. Every argument is checked before
 * the first {@code begin}, so a refused payload leaves the sink untouched. Allocates nothing; stateless;
 * thread-safe as far as the sink is. (Data that writes itself and needs fragments is the one case that allocates: see
 * {@link #write(FrameSink, int, int, int, int, long, ByteBuf, int, int, FrameData)}.)
 */
public final class Fragmenter {

    /** The smallest MTU other than 0: rsocket-java's minimum, so that every fragment carries payload bytes. */
    public static final int MIN_MTU = 64;
    /** The largest MTU: the longest frame the protocol allows plus the length prefix. */
    public static final int MAX_MTU = FrameHeader.MAX_FRAME_LENGTH + 3;

    /** The TCP transport's length prefix, which the MTU includes. */
    private static final int LENGTH_PREFIX = 3;

    private Fragmenter() {
    }

    /**
     * Writes one payload as a frame of {@code frameType}, or as fragments when it does not fit {@code mtu}.
     *
     * @param mtu 0 (never fragment) or {@link #MIN_MTU}..{@link #MAX_MTU}, length prefix included
     * @param frameType REQUEST_RESPONSE, REQUEST_FNF, REQUEST_STREAM, REQUEST_CHANNEL or PAYLOAD
     * @param flags {@link FrameFlags#COMPLETE} for REQUEST_CHANNEL; {@link FrameFlags#NEXT} and/or
     *     {@link FrameFlags#COMPLETE} for PAYLOAD; other bits (F and M included) are ignored, as are all bits for
     *     the other types
     * @param initialRequestN for REQUEST_STREAM and REQUEST_CHANNEL, &ge; 1 (mapped as {@link Demand#toWire}); else
     *     ignored
     * @param metadata borrowed; null for no metadata (M clear), empty for empty metadata
     * @param data borrowed; null for empty data
     * @throws IllegalArgumentException before anything is written: a type other than those five, an MTU out of
     *     range, {@code streamId <= 0}, {@code initialRequestN < 1}, a PAYLOAD without N or C (or without N when it
     *     needs fragments), or, with an MTU of 0, a frame over {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static void write(FrameSink sink, int mtu, int frameType, int streamId, int flags, long initialRequestN,
            ByteBuf metadata, ByteBuf data) {
        int kept = flags & flagsKept(frameType);
        if (mtu != 0 && (mtu < MIN_MTU || mtu > MAX_MTU)) {
            throw new IllegalArgumentException("mtu outside 0 or " + MIN_MTU + ".." + MAX_MTU + ": " + mtu);
        }
        int wireField = PayloadBearingLayout.checkedField(streamId, frameType, kept, initialRequestN);
        int metadataLength = PayloadBearingLayout.metadataLength(metadata);
        int metadataIndex = metadata == null ? 0 : metadata.readerIndex();
        int dataLength = Checks.readable(data);
        int dataIndex = data == null ? 0 : data.readerIndex();
        int whole = PayloadBearingLayout.encodedLength(frameType, metadataLength, dataLength);
        if (mtu == 0 || whole <= mtu - LENGTH_PREFIX) {
            Checks.frameLength(whole, frameType);
            if (metadataLength > PayloadSection.MAX_METADATA_LENGTH) {
                throw new IllegalArgumentException("metadata length " + metadataLength + " exceeds "
                        + PayloadSection.MAX_METADATA_LENGTH);
            }
            ByteBuf out = sink.begin(whole);
            try {
                out.ensureWritable(whole);
                PayloadBearingLayout.writeChecked(out, streamId, frameType, kept, wireField,
                        metadata, metadataIndex, metadataLength, data, dataIndex, dataLength);
            } catch (RuntimeException | Error e) {
                // A source released under its payload fails only once the header is written: drop the frame whole.
                sink.abort();
                throw e;
            }
            sink.end();
            return;
        }
        if (frameType == FrameType.PAYLOAD && (kept & FrameFlags.NEXT) == 0) {
            // C moves to the last fragment, which would leave the first with neither N nor C.
            throw new IllegalArgumentException("PAYLOAD without NEXT needs fragments on stream " + streamId
                    + ": frame length " + whole + " > mtu " + mtu + " less the length prefix");
        }
        fragments(sink, mtu, frameType, streamId, kept, initialRequestN, metadata, metadataIndex, metadataLength,
                data, dataIndex, dataLength);
    }

    /**
     * Whether a payload of these lengths ({@code metadataLength} -1 for none) goes out as fragments at {@code mtu}
     * (0 = never fragment). A write that fails part way through them has sent the first fragments already: the
     * caller must end the stream at the peer (CANCEL or ERROR), which otherwise waits for the rest.
     */
    public static boolean needsFragments(int mtu, int frameType, int metadataLength, int dataLength) {
        return mtu != 0 && PayloadBearingLayout.encodedLength(frameType, metadataLength, dataLength)
            > mtu - LENGTH_PREFIX;
    }

    /**
     * Writes one payload as {@link #write(FrameSink, int, int, int, int, long, ByteBuf, ByteBuf)} does, with the
     * metadata as a range of a buffer ({@code metadataLength} -1 for none) and data that writes itself: into the
     * frame right after the metadata when the payload fits the MTU, else once into a heap buffer that the fragments
     * are then cut from.
     *
     * @throws IllegalArgumentException as the other {@code write}, or for a metadata range outside its buffer or a
     *     negative data length, before anything is written
     * @throws IllegalStateException if {@code data} wrote other than its length; the frame is then dropped
     *     ({@link FrameSink#abort}), as it is when {@code data} throws, whose exception propagates
     */
    public static void write(FrameSink sink, int mtu, int frameType, int streamId, int flags, long initialRequestN,
            ByteBuf metadata, int metadataIndex, int metadataLength, FrameData data) {
        int kept = flags & flagsKept(frameType);
        checkMtu(mtu);
        int wireField = PayloadBearingLayout.checkedField(streamId, frameType, kept, initialRequestN);
        Checks.metadataRange(metadata, metadataIndex, metadataLength);
        int dataLength = data.length();
        if (dataLength < 0) {
            throw new IllegalArgumentException("data length < 0: " + dataLength + " (" + data.getClass().getName()
                    + ")");
        }
        int whole = PayloadBearingLayout.encodedLength(frameType, metadataLength, dataLength);
        if (mtu == 0 || whole <= mtu - LENGTH_PREFIX) {
            Checks.frameLength(whole, frameType);
            if (metadataLength > PayloadSection.MAX_METADATA_LENGTH) {
                throw new IllegalArgumentException("metadata length " + metadataLength + " exceeds "
                        + PayloadSection.MAX_METADATA_LENGTH);
            }
            ByteBuf out = sink.begin(whole);
            out.ensureWritable(whole);
            PayloadBearingLayout.writeChecked(out, streamId, frameType, kept, wireField,
                    metadata, metadataIndex, metadataLength, null, 0, 0);
            int start = out.writerIndex();
            try {
                data.writeTo(out);
            } catch (RuntimeException | Error e) {
                sink.abort();
                throw e;
            }
            int written = out.writerIndex() - start;
            if (written != dataLength) {
                sink.abort();
                throw wroteOtherThanLength(data, written, dataLength);
            }
            sink.end();
            return;
        }
        if (frameType == FrameType.PAYLOAD && (kept & FrameFlags.NEXT) == 0) {
            throw new IllegalArgumentException("PAYLOAD without NEXT needs fragments on stream " + streamId
                    + ": frame length " + whole + " > mtu " + mtu + " less the length prefix");
        }
        ByteBuf bytes = Unpooled.buffer(dataLength);
        try {
            data.writeTo(bytes);
            if (bytes.readableBytes() != dataLength) {
                throw wroteOtherThanLength(data, bytes.readableBytes(), dataLength);
            }
            fragments(sink, mtu, frameType, streamId, kept, initialRequestN, metadata, metadataIndex, metadataLength,
                    bytes, 0, dataLength);
        } finally {
            bytes.release();
        }
    }

    private static void checkMtu(int mtu) {
        if (mtu != 0 && (mtu < MIN_MTU || mtu > MAX_MTU)) {
            throw new IllegalArgumentException("mtu outside 0 or " + MIN_MTU + ".." + MAX_MTU + ": " + mtu);
        }
    }

    private static IllegalStateException wroteOtherThanLength(FrameData data, int wrote, int length) {
        return new IllegalStateException(data.getClass().getName() + " wrote " + wrote + " bytes after announcing "
                + length);
    }

    /** The fragment loop; arguments checked, and the payload known not to fit one frame. */
    private static void fragments(FrameSink sink, int mtu, int frameType, int streamId, int flags,
            long initialRequestN, ByteBuf metadata, int metadataIndex, int metadataLength, ByteBuf data,
            int dataIndex, int dataLength) {
        int type = frameType;
        boolean first = true;
        int metadataLeft = Math.max(metadataLength, 0);
        int dataLeft = dataLength;
        while (true) {
            int fixed = PayloadBearingLayout.payloadStart(type);
            int room = mtu - LENGTH_PREFIX - fixed;
            // The first fragment has M whenever the payload has metadata, even empty; later ones only while
            // metadata is left. MIN_MTU leaves room for at least one byte after the length field.
            boolean metadataHere = metadataLength >= 0 && (first || metadataLeft > 0);
            int metadataTake = 0;
            if (metadataHere) {
                room -= PayloadSection.METADATA_LENGTH_SIZE;
                metadataTake = Math.min(metadataLeft, room);
                room -= metadataTake;
            }
            int dataTake = metadataLeft > metadataTake ? 0 : Math.min(dataLeft, room);
            metadataLeft -= metadataTake;
            dataLeft -= dataTake;
            boolean follows = metadataLeft > 0 || dataLeft > 0;

            int fragmentFlags = first ? flags : FrameFlags.NEXT | (flags & FrameFlags.COMPLETE);
            if (follows) {
                fragmentFlags = (fragmentFlags & ~FrameFlags.COMPLETE) | FrameFlags.FOLLOWS;
            }
            int length = fixed + (metadataHere ? PayloadSection.METADATA_LENGTH_SIZE : 0) + metadataTake + dataTake;
            ByteBuf out = sink.begin(length);
            try {
                PayloadBearingLayout.encode(out, streamId, type, fragmentFlags, initialRequestN,
                        metadataHere ? metadata : null, metadataIndex, metadataHere ? metadataTake : -1,
                        data, dataIndex, dataTake);
            } catch (RuntimeException | Error e) {
                sink.abort();
                throw e;
            }
            sink.end();
            if (!follows) {
                return;
            }
            metadataIndex += metadataTake;
            dataIndex += dataTake;
            first = false;
            type = FrameType.PAYLOAD;
        }
    }

    /** The caller's flags a type keeps: C for REQUEST_CHANNEL, N and C for PAYLOAD, none for the other requests. */
    private static int flagsKept(int frameType) {
        switch (frameType) {
            case FrameType.REQUEST_RESPONSE:
            case FrameType.REQUEST_FNF:
            case FrameType.REQUEST_STREAM:
                return 0;
            case FrameType.REQUEST_CHANNEL:
                return FrameFlags.COMPLETE;
            case FrameType.PAYLOAD:
                return FrameFlags.NEXT | FrameFlags.COMPLETE;
            default:
                throw new IllegalArgumentException("not a request or PAYLOAD frame type: " + FrameType.name(frameType));
        }
    }
}
