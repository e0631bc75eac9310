package dev.sluice.core.internal.connection;

import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * The fragments of one payload received so far (frames with the F flag), joined without copying into composite
 * buffers, bounded by the connection's maximum reassembled payload size.
 *
 * <p>Event-loop confined. Owns its composites until {@link #takeMetadata}/{@link #takeData} hand them over, or
 * {@link #release} drops them.
 */
final class Reassembly {

    /** The frame type of the first fragment (a REQUEST_* type, or PAYLOAD). */
    final int frameType;
    /** For REQUEST_STREAM / REQUEST_CHANNEL: the initial demand carried by the first fragment. */
    final long initialRequestN;
    /** Flags of the first fragment. */
    final int firstFlags;

    /** For a request: the lease statistics of its response. */
    final ResponderObserver observer;

    private final int maxBytes;
    private CompositeByteBuf metadata;
    private CompositeByteBuf data;
    private long size;

    Reassembly(int frameType, long initialRequestN, int firstFlags, int maxBytes, ResponderObserver observer) {
        this.frameType = frameType;
        this.observer = observer;
        this.initialRequestN = initialRequestN;
        this.firstFlags = firstFlags;
        this.maxBytes = maxBytes;
    }

    /**
     * Adds one fragment's metadata (mdLen -1 = none in this fragment) and data, retaining slices of {@code buf}.
     *
     * @return null, or a message when the payload would exceed the bound
     */
    String add(ByteBufAllocator alloc, ByteBuf buf, int mdIndex, int mdLen, int dataIndex, int dataLen) {
        long next = size + Math.max(mdLen, 0) + dataLen;
        if (next > maxBytes) {
            return "reassembled payload exceeds maxInboundPayloadSize: " + next + " > " + maxBytes + " bytes";
        }
        size = next;
        if (mdLen >= 0) {
            if (metadata == null) {
                metadata = alloc.compositeBuffer(Integer.MAX_VALUE);
            }
            if (mdLen > 0) {
                metadata.addComponent(true, buf.retainedSlice(mdIndex, mdLen));
            }
        }
        if (dataLen > 0) {
            if (data == null) {
                data = alloc.compositeBuffer(Integer.MAX_VALUE);
            }
            data.addComponent(true, buf.retainedSlice(dataIndex, dataLen));
        }
        return null;
    }

    /** The joined metadata (null if no fragment had any); the caller owns it. */
    ByteBuf takeMetadata() {
        ByteBuf m = metadata;
        metadata = null;
        return m;
    }

    /** The joined data (null if empty); the caller owns it. */
    ByteBuf takeData() {
        ByteBuf d = data;
        data = null;
        return d;
    }

    /**
     * Drops the fragments of a request that will never reach its handler (cancelled, over the size bound, or
     * the connection closed), and tells its lease statistics that the response ended there.
     */
    void abandon(int streamId) {
        release();
        if (frameType != FrameType.PAYLOAD) {
            observer.onFirstSignal(streamId, ResponderObserver.CANCEL);
            observer.onTerminated(streamId, ResponderObserver.CANCEL);
        }
    }

    void release() {
        if (metadata != null) {
            metadata.release();
            metadata = null;
        }
        if (data != null) {
            data.release();
            data = null;
        }
    }
}
