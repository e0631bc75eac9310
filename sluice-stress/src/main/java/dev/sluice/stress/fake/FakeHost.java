package dev.sluice.stress.fake;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.stream.OutboundGate;
import dev.sluice.core.internal.stream.Stream;
import dev.sluice.core.internal.stream.StreamHost;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameSink;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connection of one stream under test: an {@link ActorLoop}, a registry, and a log of the frames written, one
 * letter each — Q a request frame (REQUEST_RESPONSE/STREAM/CHANNEL), P a PAYLOAD with NEXT, C a COMPLETE, N a
 * REQUEST_N, X a CANCEL, E an ERROR — which tests report as an outcome ("-" when nothing was written).
 *
 * <p>Frames from the peer are delivered through the {@code deliverX} methods, and reach the stream only while it is
 * registered under that id, as the real connection's dispatcher does; a payload for no stream is released.
 *
 * <p>Event-loop confined like the real one: every method but {@link #execute} and {@link #inEventLoop} must run on
 * the loop's thread. Calls from any other thread are counted and show in {@link #frames}, which every test reports.
 * The transport is always writable, and work the gate defers is queued on the loop.
 */
public final class FakeHost implements StreamHost, OutboundGate {

    private final ActorLoop loop = new ActorLoop();
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final StringBuilder frames = new StringBuilder();
    private final AtomicInteger offLoop = new AtomicInteger();
    private int nextStreamId = 1;

    /** The loop, to {@code enter}, {@code drain} and {@code leave}. */
    public ActorLoop actorLoop() {
        return loop;
    }

    /**
     * The frames written so far, one letter each, or "-"; then "!offLoop=k" if k loop-only calls came from another
     * thread, and "!Name" for each exception a loop task threw. Anything after a "!" is a forbidden outcome.
     */
    public String written() {
        String s = frames.length() == 0 ? "-" : frames.toString();
        if (offLoop.get() > 0) {
            s += "!offLoop=" + offLoop.get();
        }
        return s + loop.failures();
    }

    /** Streams still registered. */
    public int registered() {
        return streams.size();
    }

    // --- frames from the peer (loop thread) ------------------------------------------------------------------

    public void deliverNext(int streamId, Payload p, boolean complete) {
        Stream s = confined(streamId);
        if (s == null) {
            p.release();
        } else {
            s.onNextFrame(p, complete);
        }
    }

    public void deliverComplete(int streamId) {
        Stream s = confined(streamId);
        if (s != null) {
            s.onCompleteFrame();
        }
    }

    public void deliverRequestN(int streamId, long n) {
        Stream s = confined(streamId);
        if (s != null) {
            s.onRequestN(n);
        }
    }

    public void deliverCancel(int streamId) {
        Stream s = confined(streamId);
        if (s != null) {
            s.onCancel();
        }
    }

    private Stream confined(int streamId) {
        checkLoop();
        return streams.get(streamId);
    }

    // --- StreamHost --------------------------------------------------------------------------------------------

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

    /** No read bursts here: a start runs like any other task. */
    @Override
    public void startSoon(Runnable task) {
        execute(task);
    }

    @Override
    public boolean inEventLoop() {
        return loop.inEventLoop();
    }

    @Override
    public OutboundGate gate() {
        return this;
    }

    @Override
    public Throwable refuseNewRequest(Runnable start) {
        checkLoop();
        return null;
    }

    @Override
    public Throwable refuseWhenClosed() {
        checkLoop();
        return null;
    }

    @Override
    public int register(Stream stream) {
        int id = allocateStreamId();
        streams.put(id, stream);
        return id;
    }

    @Override
    public void registerPeerStream(int streamId, Stream stream) {
        checkLoop();
        streams.put(streamId, stream);
    }

    @Override
    public int allocateStreamId() {
        checkLoop();
        int id = nextStreamId;
        nextStreamId += 2;
        return id;
    }

    @Override
    public RSocketErrorException streamIdsExhausted() {
        return new RSocketErrorException(ErrorCodes.REJECTED, "stream ids exhausted");
    }

    @Override
    public boolean remove(int streamId, Stream stream) {
        checkLoop();
        return streams.remove(streamId, stream);
    }

    @Override
    public void awaitFirstPayload(Stream stream) {
        checkLoop();
    }

    @Override
    public void stopAwaiting(Stream stream) {
        checkLoop();
    }

    /** Where streams encode REQUEST_* and PAYLOAD frames: each one is logged by its type, the bytes dropped. */
    private final ByteBuf scratch = Unpooled.wrappedBuffer(new byte[1024]);
    private final FrameSink sink = new FrameSink() {
        @Override
        public ByteBuf begin(int sizeHint) {
            scratch.clear();
            return scratch;
        }

        @Override
        public void end() {
            write(FrameHeader.frameType(scratch, 0) == FrameType.PAYLOAD ? 'P' : 'Q');
        }

        @Override
        public void abort() {
            scratch.clear();
        }
    };

    @Override
    public FrameSink frames() {
        return sink;
    }

    @Override
    public int mtu() {
        return 0;
    }

    @Override
    public void writeRequestN(int streamId, long n) {
        write('N');
    }

    @Override
    public void writeCancel(int streamId) {
        write('X');
    }

    @Override
    public void writeComplete(int streamId) {
        write('C');
    }

    @Override
    public void writeError(int streamId, int code, String message) {
        write('E');
    }

    @Override
    public void writeMetadataPush(ByteBuf metadata) {
        write('M');
    }

    private void write(char frame) {
        checkLoop();
        frames.append(frame);
    }

    private void checkLoop() {
        if (!loop.inEventLoop()) {
            offLoop.incrementAndGet();
        }
    }

    // --- OutboundGate ------------------------------------------------------------------------------------------

    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void whenWritable(Runnable task) {
        loop.execute(task);
    }

    @Override
    public void later(Runnable task) {
        loop.execute(task);
    }
}
