package dev.sluice.core.internal.stream;

import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.FrameSink;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

/**
 * What a stream needs from its connection: the event loop, the stream registry, the frames it writes and whether
 * a new request may start. Implemented by the connection; every method but {@link #execute} and
 * {@link #inEventLoop} must be called on the event loop.
 */
public interface StreamHost {

    EventExecutor loop();

    /** Runs {@code task} on the event loop: now if already there, else queued behind what is there. */
    void execute(Runnable task);

    boolean inEventLoop();

    /**
     * Runs a stream's start task on the event loop as soon as it is free: after the frames of the current read
     * burst when called while one is handled (a request made from a response's handler), now when on the loop
     * otherwise, queued from another thread. Why: a request made inside the handling of a response would otherwise
     * run at the bottom of the read path's call stack, past the JIT's inlining depth, and write mid-burst. (Started
     * at once, it wins in {@code RequesterClosedLoopBenchmark}, whose stack is shallow, and loses in a real pair:
     * measured again on 2026-11-28, see the benchmarks doc.)
     */
    void startSoon(Runnable task);

    /**
     * Runs a stream's demand task after a {@code request(n)} whose {@code addDemand} returned {@code previous}, if
     * that raised the demand from 0: the first demand starts the stream ({@link #startSoon}: made during a read
     * burst, it goes out when the burst ends, in order with the other requests made in it), later demand is sent
     * at once ({@link #execute}).
     */
    default void demandRaised(long previous, Runnable task) {
        if (StreamState.wasIdle(previous)) {
            if (StreamState.isFirstFrameSent(previous)) {
                execute(task);
            } else {
                startSoon(task);
            }
        }
    }

    /** What outbound streams pace their publishers with. */
    OutboundGate gate();

    /**
     * Why a new local request cannot start now, or null; with leasing, also takes the request's lease permit. Or
     * {@link dev.sluice.core.internal.lease.ConnectionLeases#WAITING}: the request waits for a permit, and
     * {@code start} will run again (when a permit is there, when the wait is over, or when the connection closes)
     * and call this again; until then the request must stay as it was, its payload kept.
     */
    Throwable refuseNewRequest(Runnable start);

    /** Why nothing can be sent now (closed or closing), or null. */
    Throwable refuseWhenClosed();

    /** Registers {@code stream} under a free stream id of this side; -1 when every one is in use. */
    int register(Stream stream);

    /** Registers a stream the peer opened, under the peer's id (before its handler's answer is subscribed). */
    void registerPeerStream(int streamId, Stream stream);

    /** A free stream id for a request that needs no registry entry (fire-and-forget); -1 when none is. */
    int allocateStreamId();

    /** The error for a request that found no stream id left. */
    RSocketErrorException streamIdsExhausted();

    /** Removes {@code stream} if it is still the one registered under {@code streamId}. */
    boolean remove(int streamId, Stream stream);

    /**
     * Tells {@code stream}, a request waiting for its caller's first payload before it can be sent (and registered),
     * of the connection's close, as registered streams are told; until {@link #stopAwaiting}.
     */
    void awaitFirstPayload(Stream stream);

    /** {@code stream} sent its first frame, or ended: the close of the connection no longer concerns it here. */
    void stopAwaiting(Stream stream);

    /**
     * Where REQUEST_* and PAYLOAD frames go: streams write them with {@code Fragmenter.write(frames(), mtu(), ...)},
     * directly rather than through a method here, because the request path is deep enough that each call level
     * counts against the JIT's inlining depth.
     */
    FrameSink frames();

    /** Fragment frames larger than this (bytes, the length prefix included); 0 = never. */
    int mtu();

    void writeRequestN(int streamId, long n);

    void writeCancel(int streamId);

    /** PAYLOAD with COMPLETE alone. */
    void writeComplete(int streamId);

    void writeError(int streamId, int code, String message);

    void writeMetadataPush(ByteBuf metadata);
}
