package dev.sluice.core.internal.connection;

import dev.sluice.core.transport.DuplexConnection;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * One event loop's outbound buffer, shared by the {@link FrameWriter}s of all connections on that loop: frames are
 * encoded into it back to back, and each batch goes to its transport as a retained slice. A buffer is allocated
 * once per {@link #CHUNK_BYTES} of frames instead of once per flush, so a read burst that answers a single request
 * (a lightly loaded server, a paced client) pays no allocation for its batch, and the bytes it writes are the ones
 * the previous batch warmed in the cache.
 *
 * <p>At most one writer has unsent bytes in the buffer at a time, its <em>owner</em>: when another writer starts
 * a frame, the owner's pending frames are first handed to its transport (written, not flushed; its own flush
 * follows as usual). Slices never overlap what is written after them, so a transport may hold one as long as it
 * likes.
 *
 * <p>Only event loops whose thread releases its {@link FastThreadLocal}s when it ends get one (Netty's own loops
 * do); a writer on any other thread allocates a buffer per batch instead, so that no buffer is stranded in a dead
 * thread. Loop-confined.
 */
final class LoopWriteBuffer {

    /**
     * A new buffer holds this much, or the one frame that needs more. 32 KiB is the largest size Netty's pooled
     * allocator keeps in its per-thread cache by default, so a chunk comes from that cache: a larger one is carved
     * from the shared arena, whose run bookkeeping the JIT was still recompiling seconds into a paced load.
     */
    static final int CHUNK_BYTES = 32 * 1024;

    private static final FastThreadLocal<LoopWriteBuffer> CURRENT = new FastThreadLocal<>() {
        @Override
        protected LoopWriteBuffer initialValue() {
            return new LoopWriteBuffer();
        }

        @Override
        protected void onRemoval(LoopWriteBuffer value) {
            value.release();
        }
    };

    private ByteBuf buffer;
    private FrameWriter owner;
    /** Where the owner's unsent bytes start. */
    private int pendingStart;

    private LoopWriteBuffer() {
    }

    /** The current thread's buffer, or null if this thread is not an event loop that cleans up after itself. */
    static LoopWriteBuffer forCurrentThread() {
        Thread t = Thread.currentThread();
        return t instanceof FastThreadLocalThread && FastThreadLocalThread.willCleanupFastThreadLocals(t)
            ? CURRENT.get()
            : null;
    }

    /**
     * Makes room for {@code needed} bytes written by {@code writer}, which becomes the owner (the previous owner's
     * pending bytes are handed over first), and returns the buffer to write at its writer index. The allocator is
     * asked for only when a new buffer is needed (once per chunk, not per frame).
     */
    ByteBuf claim(FrameWriter writer, int needed, DuplexConnection transport) {
        if (buffer == null || buffer.writableBytes() < needed) {
            if (owner != null) {
                owner.handOver();
            }
            release();
            buffer = transport.alloc().directBuffer(Math.max(needed, CHUNK_BYTES));
        }
        if (owner != writer) {
            if (owner != null) {
                owner.handOver();
            }
            owner = writer;
            pendingStart = buffer.writerIndex();
        }
        return buffer;
    }

    /** The bytes {@code writer} has written and not handed over yet. */
    int pending(FrameWriter writer) {
        return owner == writer ? buffer.writerIndex() - pendingStart : 0;
    }

    /**
     * Takes {@code writer}'s pending bytes as a retained slice (null if none), to be handed to its transport; with
     * {@code discard} they are dropped instead.
     */
    ByteBuf take(FrameWriter writer, boolean discard) {
        if (owner != writer) {
            return null;
        }
        owner = null;
        int start = pendingStart;
        int end = buffer.writerIndex();
        pendingStart = end;
        return discard || end == start ? null : buffer.retainedSlice(start, end - start);
    }

    private void release() {
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
    }
}
