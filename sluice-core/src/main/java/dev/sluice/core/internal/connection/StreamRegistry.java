package dev.sluice.core.internal.connection;

import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.stream.OutboundGate;
import dev.sluice.core.internal.stream.Stream;
import dev.sluice.core.internal.stream.StreamHost;
import dev.sluice.frame.CancelFrame;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameSink;
import dev.sluice.frame.MetadataPushFrame;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestNFrame;
import io.netty.buffer.ByteBuf;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The streams of one connection and what they reach of it: the int-keyed registry of active streams and of
 * requests still being reassembled, stream-id allocation, the frames streams write, and the writability gate that
 * paces their publishers. The {@link StreamHost} the interaction classes see.
 *
 * <p>Event-loop confined, except {@link #execute} and {@link #inEventLoop}.
 */
final class StreamRegistry implements StreamHost, OutboundGate {

    private final RSocketConnection connection;
    private final EventExecutor loop;
    private final FrameWriter writer;
    private final StreamTable<Stream> streams = new StreamTable<>();
    private final IntObjectHashMap<Reassembly> reassemblies = new IntObjectHashMap<>(4);
    /**
     * Start tasks of requests made during the current read burst, in order, run when it ends (see startSoon): the
     * first {@link #deferredCount}, from {@link #deferredNext} on still to run. A plain array, which a burst's
     * starts fill and the burst's end empties front to back.
     */
    private Runnable[] deferred = new Runnable[64];
    private int deferredCount;
    private int deferredNext;
    /** Requests waiting for their caller's first payload (a channel), not yet registered; see awaitFirstPayload. */
    private final Set<Stream> awaitingFirstPayload = Collections.newSetFromMap(new IdentityHashMap<>(0));
    /** Outbound demand waiting for the transport to become writable. */
    private final ArrayDeque<Runnable> writableWaiters = new ArrayDeque<>(0);
    /** This side's first stream id: 1 for a client, 2 for a server. */
    private final int firstStreamId;
    private int nextStreamId;
    /** Whether the ids ran past 2^31-1 and started again at the first: from then on a candidate may be in use. */
    private boolean wrapped;
    private boolean closed;

    StreamRegistry(RSocketConnection connection, EventExecutor loop, FrameWriter writer, boolean client) {
        this.connection = connection;
        this.loop = loop;
        this.writer = writer;
        this.firstStreamId = client ? 1 : 2;
        this.nextStreamId = firstStreamId;
    }

    // --- the registry ----------------------------------------------------------------------------------------

    Stream get(int streamId) {
        return streams.get(streamId);
    }

    @Override
    public void registerPeerStream(int streamId, Stream stream) {
        streams.put(streamId, stream);
    }

    boolean inUse(int streamId) {
        return streams.containsKey(streamId) || !reassemblies.isEmpty() && reassemblies.containsKey(streamId);
    }

    /** Streams and reassemblies: what counts against maxActiveStreams. */
    int active() {
        return streams.size() + reassemblies.size();
    }

    int size() {
        return streams.size();
    }

    boolean isEmpty() {
        return streams.isEmpty();
    }

    Reassembly reassembly(int streamId) {
        return reassemblies.isEmpty() ? null : reassemblies.get(streamId);
    }

    void putReassembly(int streamId, Reassembly r) {
        reassemblies.put(streamId, r);
    }

    /** The reassembly of {@code streamId} is complete: it leaves the table, handing over its buffers. */
    void takeReassembly(int streamId) {
        reassemblies.remove(streamId);
    }

    /** Drops the fragments received so far on {@code streamId}, if any. */
    void dropReassembly(int streamId) {
        if (!reassemblies.isEmpty()) {
            Reassembly r = reassemblies.remove(streamId);
            if (r != null) {
                r.abandon(streamId);
            }
        }
    }

    @Override
    public int register(Stream stream) {
        int id = allocateStreamId();
        if (id > 0) {
            streams.put(id, stream);
        }
        return id;
    }

    /**
     * The next stream id of this side: upwards by two from its first; past 2^31-1 they start again at the first
     * and skip every id still in use (a stream, or a reassembly of fragments), as the protocol allows a requester
     * to, so that a connection carries any number of requests (rsocket-java wraps the same way). An id comes back
     * only after 2^30 other requests from this side, long after any late frame for its previous stream.
     */
    @Override
    public int allocateStreamId() {
        int id = nextStreamId;
        if (id > 0 && !wrapped) {
            // Before the first wrap no id was used before: nothing to look up.
            nextStreamId = id + 2;
            return id;
        }
        return allocateAfterWrap();
    }

    private int allocateAfterWrap() {
        wrapped = true;
        // Among active() + 1 candidates one is free: at most that many are looked at.
        for (long tries = active() + 1L; tries > 0; tries--) {
            int id = nextStreamId;
            if (id <= 0) {
                id = firstStreamId;
            }
            nextStreamId = id + 2;
            if (!inUse(id)) {
                return id;
            }
        }
        return -1;
    }

    /** Starts this side's ids at {@code next} (of this side's parity): for tests of the wrap. */
    void nextStreamIdForTest(int next) {
        if (next <= 0 || (next & 1) != (firstStreamId & 1)) {
            throw new IllegalArgumentException("not one of this side's stream ids: " + next);
        }
        nextStreamId = next;
    }

    @Override
    public RSocketErrorException streamIdsExhausted() {
        // Only when every one of this side's 2^30 ids is in use at once (see allocateStreamId).
        return new RejectedException("no free stream id on this connection: all 2^30 of this side's ids are in use");
    }

    @Override
    public boolean remove(int streamId, Stream stream) {
        // Only if the id is still this stream's: a late cancel may come after the id went to a new stream.
        if (!streams.remove(streamId, stream)) {
            return false;
        }
        dropReassembly(streamId);
        if (streams.isEmpty()) {
            connection.lastStreamRemoved();
        }
        return true;
    }

    @Override
    public void awaitFirstPayload(Stream stream) {
        awaitingFirstPayload.add(stream);
    }

    @Override
    public void stopAwaiting(Stream stream) {
        awaitingFirstPayload.remove(stream);
    }

    /** The connection closed: every stream and reassembly ends with {@code cause}; nothing is written anymore. */
    void closeAll(Throwable cause) {
        // Requests deferred to the end of a read burst that will not end now: they find the connection closed.
        runDeferred();
        closed = true;
        writableWaiters.clear();
        if (!streams.isEmpty()) {
            List<Stream> open = streams.takeAll();
            for (Stream st : open) {
                try {
                    st.onConnectionClosed(cause);
                } catch (Throwable t) {
                    RSocketConnection.log.warn("stream failed while closing", t);
                }
            }
        }
        if (!awaitingFirstPayload.isEmpty()) {
            List<Stream> waiting = new ArrayList<>(awaitingFirstPayload);
            awaitingFirstPayload.clear();
            for (Stream st : waiting) {
                try {
                    st.onConnectionClosed(cause);
                } catch (Throwable t) {
                    RSocketConnection.log.warn("request failed while closing", t);
                }
            }
        }
        if (!reassemblies.isEmpty()) {
            for (IntObjectMap.PrimitiveEntry<Reassembly> e : reassemblies.entries()) {
                e.value().abandon(e.key());
            }
            reassemblies.clear();
        }
    }

    // --- the event loop and the gate -------------------------------------------------------------------------

    @Override
    public EventExecutor loop() {
        return loop;
    }

    @Override
    public void execute(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    @Override
    public boolean inEventLoop() {
        return loop.inEventLoop();
    }

    @Override
    public void startSoon(Runnable task) {
        if (!loop.inEventLoop()) {
            loop.execute(task);
        } else if (connection.inReadBurst()) {
            if (deferredCount == deferred.length) {
                deferred = Arrays.copyOf(deferred, deferredCount * 2);
            }
            deferred[deferredCount++] = task;
        } else {
            task.run();
        }
    }

    /** Whether a read burst deferred start tasks. */
    boolean hasDeferred() {
        return deferredCount != 0;
    }

    /** Runs the start tasks deferred during the read burst that is ending (and any they defer in turn). */
    void runDeferred() {
        // Reentrant: a task that closes the connection runs the rest from here (closeAll), and this loop then ends.
        while (deferredNext < deferredCount) {
            Runnable task = deferred[deferredNext];
            deferred[deferredNext++] = null;
            task.run();
        }
        deferredNext = 0;
        deferredCount = 0;
    }

    @Override
    public OutboundGate gate() {
        return this;
    }

    @Override
    public boolean writable() {
        return connection.transportWritable();
    }

    @Override
    public void whenWritable(Runnable task) {
        if (!closed) {
            writableWaiters.add(task);
        }
    }

    @Override
    public void later(Runnable task) {
        loop.execute(task);
    }

    /** The transport's writability changed: waiters either request a batch or, if full again, wait anew. */
    void onWritabilityChanged(boolean writable) {
        for (int i = writableWaiters.size(); i > 0 && writable && connection.transportWritable(); i--) {
            writableWaiters.poll().run();
        }
    }

    @Override
    public Throwable refuseNewRequest(Runnable start) {
        return connection.refuseNewRequest(start);
    }

    @Override
    public Throwable refuseWhenClosed() {
        return connection.refuseWhenClosed();
    }

    // --- frames the streams write ----------------------------------------------------------------------------

    @Override
    public FrameSink frames() {
        return writer;
    }

    @Override
    public int mtu() {
        return writer.mtu();
    }

    @Override
    public void writeRequestN(int streamId, long n) {
        if (!closed) {
            ByteBuf out = writer.begin(FrameHeader.SIZE + 4);
            RequestNFrame.encode(out, streamId, n);
            writer.end();
        }
    }

    @Override
    public void writeCancel(int streamId) {
        if (!closed) {
            ByteBuf out = writer.begin(FrameHeader.SIZE);
            CancelFrame.encode(out, streamId);
            writer.end();
        }
    }

    @Override
    public void writeComplete(int streamId) {
        if (!closed) {
            ByteBuf out = writer.begin(FrameHeader.SIZE);
            PayloadFrame.encode(out, streamId, false, true, false, null, null);
            writer.end();
        }
    }

    @Override
    public void writeError(int streamId, int code, String message) {
        if (!closed) {
            ByteBuf out = writer.begin(FrameHeader.SIZE + 4 + message.length() * 3);
            ErrorFrame.encode(out, streamId, code, message);
            writer.end();
        }
    }

    @Override
    public void writeMetadataPush(ByteBuf metadata) {
        ByteBuf out = writer.begin(MetadataPushFrame.encodedLength(metadata));
        MetadataPushFrame.encode(out, metadata);
        writer.end();
    }
}
