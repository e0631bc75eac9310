package dev.sluice.core.internal.connection;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameSink;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;

/**
 * Writes frames for one connection into a batch buffer and hands the batch to the transport once per event-loop
 * turn, so that a burst of small frames costs one buffer and one syscall rather than one of each per frame.
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
     * flow under the demand window, and flushing them early only adds syscalls.
     */
    static final int BURST_FLUSH_FRAMES = 128;
    private static final int LENGTH_PREFIX = 3;

    private final DuplexConnection transport;
    private final boolean prefixed;
    /** Fragment frames so that none exceeds this size including the length prefix; 0 = never fragment. */
    private final int mtu;

    private ByteBuf batch;
    private int frameStart;
    private boolean flushScheduled;
    private boolean inReadBurst;
    private boolean dirty;
    private boolean closed;
    private int framesSinceFlush;

    FrameWriter(DuplexConnection transport, int mtu) {
        this.transport = transport;
        this.prefixed = transport.lengthPrefixed();
        this.mtu = mtu;
    }

    /** Starts a frame of about {@code sizeHint} bytes (prefix excluded) and returns the buffer to encode into. */
    @Override
    public ByteBuf begin(int sizeHint) {
        int needed = sizeHint + LENGTH_PREFIX;
        if (batch != null && (!prefixed || batch.writableBytes() < needed)) {
            handOver();
        }
        if (batch == null) {
            batch = transport.alloc().directBuffer(prefixed ? Math.max(needed, BATCH_BYTES) : needed);
        }
        frameStart = batch.writerIndex();
        if (prefixed) {
            batch.writeMedium(0);
        }
        return batch;
    }

    /** Finishes the frame started by {@link #begin}. */
    @Override
    public void end() {
        boolean full = true;
        int header = frameStart;
        if (prefixed) {
            batch.setMedium(frameStart, batch.writerIndex() - frameStart - LENGTH_PREFIX);
            full = batch.readableBytes() >= BATCH_BYTES;
            header += LENGTH_PREFIX;
        }
        dirty = true;
        if (inReadBurst) {
            if (exchange(batch, header) && ++framesSinceFlush >= BURST_FLUSH_FRAMES) {
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

    /**
     * Whether the frame at {@code off} starts or ends an exchange — a request, a final PAYLOAD, an ERROR or a
     * CANCEL: what a peer waits for before it sends more work.
     */
    private static boolean exchange(ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        return switch (type) {
            case FrameType.PAYLOAD -> FrameHeader.hasFlag(buf, off, FrameFlags.COMPLETE);
            case FrameType.REQUEST_RESPONSE, FrameType.REQUEST_FNF, FrameType.REQUEST_STREAM,
                FrameType.REQUEST_CHANNEL, FrameType.ERROR, FrameType.CANCEL -> true;
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

    private void flushBatch() {
        framesSinceFlush = 0;
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
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }

    private void handOver() {
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
