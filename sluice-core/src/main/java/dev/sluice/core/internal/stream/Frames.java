package dev.sluice.core.internal.stream;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import dev.sluice.frame.PayloadSection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Payloads and frames: the payload section of a received frame as a {@link Payload} over its bytes (zero copy), and
 * a payload whose data writes itself written as a frame.
 */
public final class Frames {

    private Frames() {
    }

    /** The payload of the frame at {@code buf[off, off + len)}, whose payload section starts at {@code start}. */
    public static Payload payload(ByteBuf buf, int off, int len, int start) {
        int mdLen = PayloadSection.metadataLength(buf, off, len, start);
        int dataLen = PayloadSection.dataLength(buf, off, len, start);
        ByteBuf data = dataLen == 0 ? Unpooled.EMPTY_BUFFER
            : buf.retainedSlice(PayloadSection.dataOffset(buf, off, len, start), dataLen);
        ByteBuf metadata = mdLen < 0 ? null : mdLen == 0 ? Unpooled.EMPTY_BUFFER
            : buf.retainedSlice(PayloadSection.metadataOffset(buf, off, start), mdLen);
        return Payload.create(data, metadata);
    }

    /**
     * The payload whose metadata is {@code buf[mdOffset, +mdLength)} ({@code mdLength} -1 = absent) and whose data
     * is {@code buf[dataOffset, +dataLength)}: one reference to {@code buf}, views made on first use.
     */
    public static Payload payload(ByteBuf buf, int mdOffset, int mdLength, int dataOffset, int dataLength) {
        return Payload.ofRegions(buf, mdOffset, mdLength, dataOffset, dataLength);
    }

    /**
     * As {@link #payload(ByteBuf, int, int, int, int)}, borrowing {@code buf} for the length of the current
     * {@code onFrame} call, carried by {@code reuse} when that is the previous frame's payload and was released
     * (see {@link #endBorrow}): hand it on, then call {@code endBorrow} (see {@link Payload#borrowRegions}).
     */
    public static Payload borrowedPayload(Payload reuse, ByteBuf buf, int mdOffset, int mdLength, int dataOffset,
                                          int dataLength) {
        return Payload.borrowRegions(reuse, buf, mdOffset, mdLength, dataOffset, dataLength);
    }

    /**
     * Ends the loan of a {@link #borrowedPayload}: a payload still held takes its reference to the frame now.
     *
     * @return {@code p} if it was released, for the next frame's {@code reuse}; else null
     */
    public static Payload endBorrow(Payload p) {
        return Payload.endBorrow(p) ? p : null;
    }

    /**
     * Writes {@code p}, whose data writes itself ({@code data}, the payload itself), as a frame of {@code frameType}
     * (fragments if it needs them), the metadata read in place. The streams' other payloads go to
     * {@code Fragmenter.write} with their buffers directly: that path is not given this extra call level.
     */
    public static void write(StreamHost host, int frameType, int streamId, int flags, long initialRequestN,
                             Payload p, FrameData data) {
        Fragmenter.write(host.frames(), host.mtu(), frameType, streamId, flags, initialRequestN,
            p.metadataBuffer(), p.metadataIndex(), p.hasMetadata() ? p.metadataLength() : -1, data);
    }

    /**
     * After writing a request of {@code frameType} failed: a frame is dropped whole, but of a payload written in
     * fragments the first ones may be out, and the peer would hold them waiting for the rest. A CANCEL tells it to
     * drop them; a peer ignores a CANCEL for a stream it never saw (when the first fragment was the one that failed).
     * Call before releasing {@code p}. Never throws: a failure here is added to {@code failure}, which the caller
     * still signals.
     */
    public static void cancelPartialRequest(StreamHost host, int frameType, int streamId, Payload p,
                                            Throwable failure) {
        try {
            if (host.mtu() != 0 && p.refCnt() > 0 && Fragmenter.needsFragments(host.mtu(), frameType,
                    p.hasMetadata() ? p.metadataLength() : -1, p.dataLength())) {
                host.writeCancel(streamId);
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** The metadata buffer, or null when absent (for the encoder, which must tell absent from empty). */
    public static ByteBuf metadataOrNull(Payload p) {
        return p.hasMetadata() ? p.metadata() : null;
    }
}
