package dev.sluice.core.internal.connection;

import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FragmentAssembler;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * One payload being reassembled from fragments: its buffers in a {@link FragmentAssembler} (joined without
 * copying, bounded by the connection's maximum reassembled payload size), and what the engine needs to act on it
 * once complete: the first fragment's type, flags and demand, and the request's lease statistics.
 *
 * <p>Event-loop confined. Owns the assembler's buffers until {@link #takeMetadata}/{@link #takeData} hand them
 * over, or {@link #release} drops them.
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

    private final FragmentAssembler buffers;

    Reassembly(int frameType, long initialRequestN, int firstFlags, int maxBytes, ResponderObserver observer) {
        this.frameType = frameType;
        this.observer = observer;
        this.initialRequestN = initialRequestN;
        this.firstFlags = firstFlags;
        this.buffers = new FragmentAssembler(maxBytes);
    }

    /**
     * Adds one fragment's metadata (mdLen -1 = none in this fragment) and data, retaining slices of {@code buf}.
     *
     * @return null, or a message when the payload would exceed the bound
     */
    String add(ByteBufAllocator alloc, ByteBuf buf, int mdIndex, int mdLen, int dataIndex, int dataLen) {
        return buffers.add(alloc, buf, mdIndex, mdLen, dataIndex, dataLen);
    }

    /** The joined metadata (null if no fragment had any); the caller owns it. */
    ByteBuf takeMetadata() {
        return buffers.takeMetadata();
    }

    /** The joined data (null if empty); the caller owns it. */
    ByteBuf takeData() {
        return buffers.takeData();
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

    /**
     * Drops the fragments of a request refused with ERROR[REJECTED] {@code why} (over the size bound), and tells
     * its observers that the response ended with that error.
     */
    void refuse(int streamId, RejectedException why) {
        release();
        if (frameType != FrameType.PAYLOAD) {
            observer.onFirstSignal(streamId, ResponderObserver.ERROR);
            observer.onError(streamId, why);
            observer.onTerminated(streamId, ResponderObserver.ERROR);
        }
    }

    void release() {
        buffers.release();
    }
}
