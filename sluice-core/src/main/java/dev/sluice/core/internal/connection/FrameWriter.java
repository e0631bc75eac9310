package dev.sluice.core.internal.connection;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameSink;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;

/**
 * Writes frames for one connection into a batch buffer and hands the batch to the transport once per event-loop
 * turn, so that a burst of small frames costs one buffer and one syscall rather than one of each per frame. On a
 * Netty event loop the batch is a slice of the loop's {@link LoopWriteBuffer}, shared with the loop's other
 * connections, so that a batch costs no allocation either.
 *
 * <p>Event-loop confined. Usage: {@code ByteBuf out = begin(size); XxxFrame.encode(out, ...); end();}.
 *
 * <p>Flushing: frames written while the connection is handling a read burst are flushed when the burst ends
 * ({@link #flushNow}); frames written from a task (a request from another thread, a timer) schedule one flush
 * task behind the tasks already queued, which batches everything those tasks write.
 */
final class FrameWriter implements Runnable, FrameSink {

    /**
     * A batch is handed to the transport once it holds this much, even mid-turn, to bound its size. 32 KiB is the
     * largest buffer Netty's pooled allocator keeps in its per-thread cache by default: a larger batch is carved
     * from the shared arena under a lock on every flush, which cost a third of a request's time when each read
     * burst answers one request.
     */
    static final int BATCH_BYTES = 32 * 1024;
    /**
     * Within a read burst, a batch is flushed once it holds this many exchange frames (see {@link #exchange}): the
     * peer starts on the first answers while this side works on the rest, instead of the two taking turns with
     * whole windows of requests (which leaves each core idle half the time). Stream elements do not count: they
     * flow under the demand window, and flushing them early only adds syscalls. Nor do fire-and-forgets, which
     * nobody answers; but an exchange frame written after this many frames were read since the last flush goes
     * out at once (the answer to a request that followed a run of fire-and-forgets: without it, a burst that read
     * two such runs answered both at its end, and the peer sent its next two together, the sides taking turns).
     */
    static final int BURST_FLUSH_FRAMES = 128;
    private static final int LENGTH_PREFIX = 3;

    private final DuplexConnection transport;
    private final boolean prefixed;
    /** Fragment frames so that none exceeds this size including the length prefix; 0 = never fragment. */
    private final int mtu;

    /** The buffer the current frame is written to: this writer's own batch, or its loop's shared buffer. */
    private ByteBuf batch;
    /** The loop's shared buffer, or null when this writer allocates its own batches (see LoopWriteBuffer). */
    private LoopWriteBuffer shared;
    /** The thread {@link #shared} was looked up on. */
    private Thread sharedThread;
    private int frameStart;
    /** The current frame's size hint, written as its length prefix: most frames are begun with their exact size. */
    private int frameHint;
    private boolean flushScheduled;
    private boolean inReadBurst;
    private boolean dirty;
    private boolean closed;
    private int framesSinceFlush;
    /** Frames read since the last flush (see {@link #BURST_FLUSH_FRAMES}). */
    private int framesReadSinceFlush;

    FrameWriter(DuplexConnection transport, int mtu) {
        this.transport = transport;
        this.prefixed = transport.lengthPrefixed();
        this.mtu = mtu;
    }

    /**
     * Starts a frame of about {@code sizeHint} bytes (prefix excluded) and returns the buffer to encode into. A hint
     * that is the frame's exact size, as the encoders give, spares {@link #end} rewriting the length prefix.
     */
    @Override
    public ByteBuf begin(int sizeHint) {
        int needed = sizeHint + LENGTH_PREFIX;
        if (prefixed) {
            LoopWriteBuffer lb = loopBuffer();
            if (lb != null) {
                batch = lb.claim(this, needed, transport);
                frameStart = batch.writerIndex();
                frameHint = sizeHint;
                batch.writeMedium(sizeHint);
                return batch;
            }
        }
        if (batch != null && (!prefixed || batch.writableBytes() < needed)) {
            handOver();
        }
        if (batch == null) {
            batch = transport.alloc().directBuffer(prefixed ? Math.max(needed, BATCH_BYTES) : needed);
        }
        frameStart = batch.writerIndex();
        if (prefixed) {
            frameHint = sizeHint;
            batch.writeMedium(sizeHint);
        }
        return batch;
    }

    /** Finishes the frame started by {@link #begin}. */
    @Override
    public void end() {
        boolean full = true;
        int header = frameStart;
        if (prefixed) {
            int length = batch.writerIndex() - frameStart - LENGTH_PREFIX;
            if (length != frameHint) {
                // The hint was a bound (an ERROR's message is sized at three bytes a char), not the size.
                batch.setMedium(frameStart, length);
            }
            full = (shared != null ? shared.pending(this) : batch.readableBytes()) >= BATCH_BYTES;
            header += LENGTH_PREFIX;
        }
        dirty = true;
        if (inReadBurst) {
            if (exchange(batch, header)
                && (++framesSinceFlush >= BURST_FLUSH_FRAMES || framesReadSinceFlush >= BURST_FLUSH_FRAMES)) {
                flushBatch();
            } else if (full) {
                handOver();
            }
            return;
        }
        if (full) {
            handOver();
        }
        if (!flushScheduled) {
            flushScheduled = true;
            transport.executor().execute(this);
        }
    }

    /** Drops the frame started by {@link #begin}, its length prefix included. */
    @Override
    public void abort() {
        batch.writerIndex(frameStart);
    }

    /**
     * Whether the frame at {@code off} starts or ends an exchange — a request that is answered, a REQUEST_N, a final
     * PAYLOAD, an ERROR or a CANCEL: what a peer waits for before it sends more work.
     */
    private static boolean exchange(ByteBuf buf, int off) {
        int typeAndFlags = buf.getUnsignedShort(off + FrameHeader.TYPE_AND_FLAGS_OFFSET);
        return switch (FrameHeader.frameType(typeAndFlags)) {
            case FrameType.PAYLOAD -> (typeAndFlags & FrameFlags.COMPLETE) != 0;
            case FrameType.REQUEST_RESPONSE, FrameType.REQUEST_STREAM, FrameType.REQUEST_CHANNEL,
                FrameType.REQUEST_N, FrameType.ERROR, FrameType.CANCEL -> true;
            default -> false;
        };
    }

    /** Marks the start of a read burst: flushing waits for {@link #flushNow}. */
    void readBurstStarted() {
        inReadBurst = true;
    }

    /** Ends a read burst (or any batch) by flushing what it wrote. */
    void flushNow() {
        inReadBurst = false;
        flushBatch();
    }

    /** Counts a frame read in the current read burst. */
    void frameRead() {
        framesReadSinceFlush++;
    }

    private void flushBatch() {
        framesSinceFlush = 0;
        framesReadSinceFlush = 0;
        if (dirty) {
            dirty = false;
            handOver();
            if (!closed) {
                transport.flush();
            }
        }
    }

    /** The scheduled flush task. */
    @Override
    public void run() {
        flushScheduled = false;
        if (!inReadBurst) {
            flushNow();
        }
    }

    /** Drops the batch; later writes are discarded. */
    void close() {
        closed = true;
        if (shared != null) {
            shared.take(this, true);
            batch = null;
        } else if (batch != null) {
            batch.release();
            batch = null;
        }
    }

    /**
     * The loop's shared buffer if this writer runs on a loop that has one; looked up again if the writer ever runs
     * on another thread (it does not on a Netty channel, whose loop is fixed).
     */
    private LoopWriteBuffer loopBuffer() {
        Thread t = Thread.currentThread();
        if (t != sharedThread) {
            handOver();
            sharedThread = t;
            shared = LoopWriteBuffer.forCurrentThread();
        }
        return shared;
    }

    /** Hands the frames written so far to the transport, without flushing. */
    void handOver() {
        if (shared != null) {
            batch = null;
            ByteBuf pending = shared.take(this, closed);
            if (pending != null) {
                transport.write(pending);
            }
            return;
        }
        ByteBuf b = batch;
        batch = null;
        if (b == null) {
            return;
        }
        if (closed || !b.isReadable()) {
            b.release();
        } else {
            transport.write(b);
        }
    }

    /**
     * Fragment frames larger than this (bytes, the length prefix included); 0 = never. Streams write REQUEST_* and
     * PAYLOAD frames with {@code Fragmenter.write(writer, mtu(), ...)}.
     */
    int mtu() {
        return mtu;
    }
}
