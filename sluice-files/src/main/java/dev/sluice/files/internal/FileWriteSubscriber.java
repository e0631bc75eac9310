package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Fuseable;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

/**
 * Writes the chunks of a source to a file, asking the source for more only as writes complete, within the caps of
 * a {@link GreedDemand}: the file writer behind {@code ReactiveFiles.write}.
 *
 * <h2>Threads</h2>
 * The source calls {@code onNext}/{@code onComplete}/{@code onError} on its own thread(s), serially; those only
 * queue the chunk (or note the end) and wake the <em>drain</em>. The drain runs on the scheduler, one run at a time
 * per subscription (a work-in-progress counter guarantees it), and does everything else: opens the file, writes,
 * releases chunks, and makes every call on the upstream {@link Subscription}. So {@code request} and {@code cancel}
 * are serial (Reactive Streams rule 2.7), are never made from within {@code onComplete} or {@code onError} (rule
 * 2.3), and demand is only added after the chunks that made room for it have been written. A run writes at most
 * {@value #WRITES_PER_RUN} chunks before yielding the thread to other subscriptions.
 *
 * <h2>Gathering writes</h2>
 * The file is written in order from offset 0 at the channel's own position, so that what is queued can go out in
 * one gathering {@link FileChannel#write(ByteBuffer[], int, int) write}: a <em>batch</em> of up to
 * {@value #MAX_BATCH_CHUNKS} chunks and {@value #MAX_BATCH_BYTES} bytes (the first chunk always goes, however large),
 * written fully (a short write is continued) before any of its chunks is released or counted. (A batch of one
 * buffer goes through the plain {@link FileChannel#write(ByteBuffer) write}, which costs the JDK less.) The demand
 * controller then hears once of the whole batch, with the new totals: the chunks completed together, and the backlog
 * it judges is what is left after them. So under a source that floods the writer, the window does not shrink to its
 * minimum but to about two batches (one written while the next waits): a window of one or two chunks would make
 * every batch one or two chunks. A chunk that cannot be presented as at most {@value #MAX_BATCH_BUFFERS} NIO buffers is
 * written on its own through {@link ChunkType#write}, also at the channel's position.
 *
 * <h2>Synchronous sources</h2>
 * A source that can fuse synchronously (Reactor's {@link Fuseable#SYNC}: {@code Flux.range(...).map(...)},
 * {@code Flux.fromIterable}, ...) is not asked for chunks at all: the drain polls them from it, one at a time, as it
 * fills a batch, and each chunk is written right after it was made, while its bytes are still in the CPU's cache.
 * (Requested chunks come in bursts, a window ahead of their writes; polling even one chunk ahead, to see whether it
 * fits the batch, cost 2-4% on 1 MiB files.) So another chunk is polled only if it is likely to fit the batch, as
 * one the size of the last would, and while the caps allow: the batch has fewer chunks than {@link
 * GreedDemand#maxItems()} and room, within {@link GreedDemand#maxBytes()}, for one more as large as the largest
 * seen. A chunk polled that does not fit after all is carried to the next batch; the writer never holds more than
 * the batch and that one. Fusion does not move any of the source's work to another thread: without it, every
 * request comes from the drain and a synchronous source emits within it, on the drain's thread, which is where
 * {@code poll} runs it now. So the writer does not ask for a thread barrier.
 *
 * <h2>Ownership</h2>
 * The writer takes ownership of every chunk it receives: it releases it once written, and releases whatever is
 * queued on cancel, on error and on chunks that arrive after either. A source that sends more than requested fails
 * the write (the extra chunk is released).
 *
 * <h2>Ends</h2>
 * On completion the file is optionally forced ({@link FileChannel#force(boolean) force(false)}) and closed, then
 * {@link WriteListener#onWritten} reports the byte count. On a source error, an open, write, force or close failure,
 * or a rejected scheduler, the upstream is cancelled (unless it ended), the queue released, the file closed and
 * {@link WriteListener#onFailed} called. On {@link #cancel()} the same happens without a signal. What was written
 * stays in the file.
 *
 * @param <T> the chunk type
 */
public final class FileWriteSubscriber<T> implements CoreSubscriber<T>, Runnable {

    /** Chunks written by one drain run before it yields its thread to other subscriptions. */
    static final int WRITES_PER_RUN = 32;

    /**
     * The most chunks in one gathering write: small chunks (a network source's, say 8 KiB) then cost one system call
     * per sixteen, and the batch arrays stay small. (Linux takes up to IOV_MAX = 1024 buffers per call; the JDK
     * splits larger arrays itself.)
     */
    static final int MAX_BATCH_CHUNKS = 16;

    /**
     * The most bytes in one gathering write, unless its first chunk alone is larger. Gathering is for small chunks
     * (a network source's, say 8 KiB, go eight to a call); at 64 KiB a system call's fixed cost, about a microsecond,
     * is already small against copying the bytes into the page cache. Larger writes were not faster where we
     * measured and were sometimes much slower: on our benchmark VM (Linux 6.18, ext4), ten files of 100 MiB written
     * in 128 or 256 KiB writes, interleaved with 64 KiB writes in one process, lost a fifth to a third of their
     * iterations to 650–1800 MB/s against about 3800, with the kernel's copy into the page cache taking five times
     * its usual time; the 64 KiB writes never dropped below 1900 MB/s and took about half the total time. A batch
     * smaller than the window also leaves the rest queued, so demand is topped up (and an asynchronous source
     * refills) while the window is still partly full, and under a fast source the window settles at two batches,
     * so fewer bytes wait on the heap. It is also what the JDK stages through per-thread cached direct buffers when
     * chunks are on the heap, so it bounds that memory per writer thread.
     */
    static final int MAX_BATCH_BYTES = 64 * 1024;

    /**
     * Room for the NIO buffers of one batch: four per chunk on average. A batch ends before a chunk whose buffers do
     * not fit; a chunk with more buffers than this is written on its own.
     */
    static final int MAX_BATCH_BUFFERS = 4 * MAX_BATCH_CHUNKS;

    /** Consecutive zero-byte writes after which a write is deemed stuck; a blocking file write never returns 0. */
    private static final int MAX_ZERO_WRITES = 16;

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<FileWriteSubscriber> WIP =
            AtomicIntegerFieldUpdater.newUpdater(FileWriteSubscriber.class, "wip");
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<FileWriteSubscriber, Subscription> UPSTREAM =
            AtomicReferenceFieldUpdater.newUpdater(FileWriteSubscriber.class, Subscription.class, "upstream");

    private final Path path;
    private final Set<? extends OpenOption> openOptions;
    private final boolean fsync;
    private final ChunkType<T> chunks;
    private final ChannelOpener opener;
    private final Scheduler scheduler;
    private final GreedDemand demand;
    private final WriteListener listener;
    private final Context context;
    private final int maxItems;
    /** The chunks of the batch being written ({@link #batchChunks} of them), kept to release them afterwards. */
    private final Object[] batch = new Object[MAX_BATCH_CHUNKS];
    /** The NIO buffers of the batch ({@link #batchBuffers} of them), reused from batch to batch; drain only. */
    private final ByteBuffer[] buffers = new ByteBuffer[MAX_BATCH_BUFFERS];

    private volatile Subscription upstream;
    /**
     * The source, when it fused synchronously: the drain polls it and never requests. Written once in {@code
     * onSubscribe}, before {@link #subscribed}.
     */
    private Fuseable.QueueSubscription<T> syncSource;
    /**
     * The chunks received and not yet written, when the source does not fuse: single producer ({@code onNext}),
     * single consumer (the drain, which alone polls and clears it). Made in {@code onSubscribe}, before {@link
     * #subscribed}, and only then: a fused source never needs it, and at a hundred writes in flight the queues
     * were most of the writers' memory.
     */
    private Queue<T> queue;
    /** {@code onSubscribe} has settled the mode ({@link #syncSource}); until then the drain leaves the source be. */
    private volatile boolean subscribed;
    private volatile int wip;
    private volatile boolean cancelled;
    /** The source ended; {@link #error} is written before it. */
    private volatile boolean done;
    private Throwable error;
    /** A failure found outside the drain (overflow, rejected scheduler); the drain acts on it. */
    private volatile Throwable failure;
    /** Set by the drain once it has ended; chunks arriving later are released at once. */
    private volatile boolean terminated;

    /** Items requested so far: written by the drain only (before it calls request), read by onNext. */
    private volatile long requested;
    /** Items and bytes received so far, and the largest item: written by onNext only, read by the drain. */
    private volatile long received;
    private volatile long receivedBytes;
    private volatile int largestItem;

    // Owned by the drain.
    private FileChannel channel;
    private long written;
    private long writtenBytes;
    private boolean upstreamCancelled;
    /** A chunk polled from {@link #syncSource} that did not fit the batch: the first of the next one. */
    private T carried;
    /** The size of the last chunk polled from {@link #syncSource}: the guess at the next one's. */
    private int lastPolled;
    private int batchChunks;
    private int batchBuffers;
    private long batchBytes;

    /**
     * A writer of {@code path}; it does nothing until subscribed to a source.
     *
     * @param openOptions how to open the file; must allow writing and not ask for {@code APPEND} (the file is
     *     written from offset 0, at the channel's position)
     * @param fsync whether to force the file's content to the device before reporting completion
     * @param context the Reactor context the source sees
     */
    public FileWriteSubscriber(Path path, Set<? extends OpenOption> openOptions, boolean fsync, ChunkType<T> chunks,
            ChannelOpener opener, Scheduler scheduler, GreedDemand demand, int maxItems, WriteListener listener,
            Context context) {
        this.path = Objects.requireNonNull(path, "path");
        this.openOptions = Objects.requireNonNull(openOptions, "openOptions");
        this.fsync = fsync;
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.demand = Objects.requireNonNull(demand, "demand");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.context = Objects.requireNonNull(context, "context");
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems < 1: " + maxItems);
        }
        this.maxItems = maxItems;
    }

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        Objects.requireNonNull(s, "onSubscribe(null)");
        if (!UPSTREAM.compareAndSet(this, null, s)) {
            // Rule 2.5: a second subscription is refused.
            s.cancel();
            return;
        }
        if (s instanceof Fuseable.QueueSubscription<?> queueSubscription) {
            @SuppressWarnings("unchecked")
            Fuseable.QueueSubscription<T> qs = (Fuseable.QueueSubscription<T>) queueSubscription;
            if (qs.requestFusion(Fuseable.SYNC) == Fuseable.SYNC) {
                syncSource = qs;
            }
        }
        if (syncSource == null) {
            queue = Queues.<T>get(maxItems).get();
        }
        subscribed = true;
        // Subscription is the last thing the subscribing task does: the drain can follow it on the same thread.
        if (WIP.getAndIncrement(this) == 0) {
            dispatch(true);
        }
    }

    @Override
    public void onNext(T item) {
        Objects.requireNonNull(item, "onNext(null)");
        if (terminated || cancelled || done || failure != null) {
            // Rule 2.8: chunks may still arrive after a cancel; they are ours, so they are released.
            chunks.release(item);
            return;
        }
        long r = received + 1;
        long req = requested;
        if (r > req) {
            chunks.release(item);
            fail(new IllegalStateException("onNext beyond demand: received=" + r + ", requested=" + req));
            return;
        }
        int size = chunks.readable(item);
        // Count before queueing, so the drain never sees an item it has not been told about.
        received = r;
        receivedBytes += size;
        if (size > largestItem) {
            largestItem = size;
        }
        // Demand comes from the drain only once onSubscribe has made the queue, and a fused source is never
        // requested from: within demand, the queue is there.
        if (!queue.offer(item)) {
            chunks.release(item);
            fail(new IllegalStateException("queue full: received=" + r + ", requested=" + req));
            return;
        }
        schedule();
    }

    @Override
    public void onError(Throwable t) {
        Objects.requireNonNull(t, "onError(null)");
        if (done) {
            Operators.onErrorDropped(t, context);
            return;
        }
        error = t;
        done = true;
        schedule();
    }

    @Override
    public void onComplete() {
        if (done) {
            return;
        }
        done = true;
        schedule();
    }

    /**
     * Stops writing: cancels the source, releases what is queued and closes the file, without calling the
     * listener. Thread-safe and idempotent; the work happens on the drain.
     */
    public void cancel() {
        cancelled = true;
        schedule();
    }

    private void fail(Throwable t) {
        if (failure == null) {
            failure = t;
        }
        schedule();
    }

    private void schedule() {
        if (WIP.getAndIncrement(this) == 0) {
            dispatch(false);
        }
    }

    /**
     * Hands the drain to the scheduler; called only by the owner of the work-in-progress counter.
     *
     * @param continuation whether the caller's task ends here, so the drain may run next on the same thread
     */
    private void dispatch(boolean continuation) {
        try {
            Schedules.schedule(scheduler, this, continuation);
        } catch (RejectedExecutionException e) {
            if (failure == null) {
                failure = e;
            }
            // We hold the drain: run it here. With a failure set it only cleans up: no I/O beyond closing the file.
            run();
        }
    }

    @Override
    public void run() {
        int missed = 1;
        for (;;) {
            if (terminated) {
                releaseQueued();
                cancelLateUpstream();
            } else if (!drain()) {
                return; // yielded: another run has been dispatched and owns the counter now
            }
            missed = WIP.addAndGet(this, -missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** One pass of the drain; false if it yielded the thread (and dispatched a new run). */
    private boolean drain() {
        Subscription s = subscribed ? upstream : null;
        int budget = WRITES_PER_RUN;
        for (;;) {
            Throwable f = failure;
            if (f != null) {
                terminate(f);
                return true;
            }
            if (cancelled) {
                terminate(null);
                return true;
            }
            if (s == null) {
                return true; // not subscribed yet: onSubscribe will wake us
            }
            boolean d = done;
            if (d && error != null) {
                terminate(error);
                return true;
            }
            if (channel == null) {
                if (!open(s)) {
                    return true;
                }
                continue;
            }
            T item;
            if (syncSource != null) {
                try {
                    item = pollSource();
                } catch (RuntimeException e) {
                    terminate(e);
                    return true;
                }
                if (item == null) {
                    complete();
                    return true;
                }
            } else {
                item = queue.poll();
                if (item == null) {
                    if (d) {
                        complete();
                    }
                    return true;
                }
            }
            int count = write(item, budget);
            if (count < 0) {
                return true;
            }
            if (syncSource == null) {
                // Once per batch: its chunks completed together, and the backlog is what they left behind.
                long n = demand.onWritten(requested - written, received - written, receivedBytes - writtenBytes,
                        largestItem);
                if (n > 0 && !done && !cancelled) {
                    requested += n;
                    s.request(n);
                }
            }
            budget -= count;
            if (budget == 0) {
                // Yield: the new run inherits the work-in-progress count we hold.
                try {
                    Schedules.schedule(scheduler, this, true);
                    return false;
                } catch (RejectedExecutionException e) {
                    failure = e;
                }
            }
        }
    }

    private boolean open(Subscription s) {
        try {
            channel = opener.open(path, openOptions);
        } catch (IOException | RuntimeException e) {
            terminate(e);
            return false;
        }
        assert isAt(channel, 0) : "a newly opened channel is not at position 0: " + path;
        if (syncSource == null) {
            long n = demand.initial();
            requested = n;
            s.request(n);
        }
        return true;
    }

    /**
     * The next chunk of a fused source: the one carried over from the last batch, else a new one, or null once the
     * source has no more (which then counts as its completion).
     */
    private T pollSource() {
        T item = carried;
        if (item != null) {
            carried = null;
            return item;
        }
        if (done) {
            return null;
        }
        item = syncSource.poll();
        if (item == null) {
            done = true;
            return null;
        }
        int size = chunks.readable(item);
        lastPolled = size;
        if (size > largestItem) {
            largestItem = size;
        }
        return item;
    }

    /**
     * Writes {@code first} and, in the same gathering write, what is queued behind it within the batch limits and
     * the run's {@code budget} of chunks (a chunk that would overflow the batch stays queued for the next one); then
     * releases and counts them.
     *
     * @return the number of chunks written, at least 1, or -1 if the write failed (the writer has terminated)
     */
    private int write(T first, int budget) {
        // The batch owns the chunk from here: whatever fails below, it is released with the batch.
        batch[0] = first;
        batchChunks = 1;
        batchBuffers = 0;
        batchBytes = 0;
        try {
            int size = chunks.readable(first);
            batchBytes = size;
            int parts = size == 0 ? 0 : chunks.nioBufferCount(first);
            if (parts < 0 || parts > MAX_BATCH_BUFFERS) {
                writeAlone(first, size);
            } else {
                if (size > 0) {
                    batchBuffers = chunks.nioBuffers(first, buffers, 0);
                }
                int max = Math.min(MAX_BATCH_CHUNKS, budget);
                if (syncSource != null) {
                    fillFromSource(max);
                } else {
                    fillFromQueue(max);
                }
                writeBatch();
            }
        } catch (IOException | RuntimeException e) {
            RuntimeException releaseError = releaseBatch();
            if (releaseError != null) {
                e.addSuppressed(releaseError);
            }
            // nioBuffers may have failed half-way, leaving buffers that batchBuffers does not count.
            Arrays.fill(buffers, null);
            terminate(e);
            return -1;
        }
        int count = batchChunks;
        written += count;
        writtenBytes += batchBytes;
        RuntimeException releaseError = releaseBatch();
        if (releaseError != null) {
            terminate(releaseError);
            return -1;
        }
        return count;
    }

    /** Adds what is queued behind the batch's first chunk, up to {@code max} chunks and while they {@link #fits}. */
    private void fillFromQueue(int max) {
        while (batchChunks < max) {
            T next = queue.peek();
            if (next == null || !fits(next)) {
                return;
            }
            queue.poll();
            add(next);
        }
    }

    /**
     * Polls a fused source for more of the batch, up to {@code max} chunks, while the next chunk, guessed the size
     * of the last, would fit and the caps leave room for one as large as the largest seen (see the class comment);
     * a polled chunk that does not {@link #fits} after all is carried to the next batch.
     */
    private void fillFromSource(int max) {
        int itemLimit = Math.min(max, demand.maxItems());
        long maxBytes = demand.maxBytes();
        while (batchChunks < itemLimit && !done && batchBytes + Math.max(1, lastPolled) <= MAX_BATCH_BYTES
                && batchBytes + Math.max(1, largestItem) <= maxBytes) {
            T next = pollSource();
            if (next == null) {
                return;
            }
            if (!fits(next)) {
                carried = next;
                return;
            }
            add(next);
        }
    }

    /**
     * Whether a chunk can join the batch: within the byte limit and with buffers that fit what is left of the
     * array. A chunk without bytes needs no buffer.
     */
    private boolean fits(T item) {
        int size = chunks.readable(item);
        if (batchBytes + size > MAX_BATCH_BYTES) {
            return false;
        }
        if (size == 0) {
            return true;
        }
        int parts = chunks.nioBufferCount(item);
        return parts >= 0 && parts <= MAX_BATCH_BUFFERS - batchBuffers;
    }

    /** Puts a queued chunk that {@link #fits} into the batch; from here the batch owns it, even if this throws. */
    private void add(T item) {
        int size = chunks.readable(item);
        batch[batchChunks++] = item;
        batchBytes += size;
        if (size > 0) {
            batchBuffers += chunks.nioBuffers(item, buffers, batchBuffers);
        }
    }

    /** Writes the batch's buffers fully; a short write is continued from where it stopped. */
    private void writeBatch() throws IOException {
        long left = batchBytes;
        int offset = 0;
        int zeroWrites = 0;
        while (left > 0) {
            // A lone buffer (the usual case for 64 KiB chunks) goes through the JDK's plain write, which is cheaper
            // than its gathering one: 1-2% more throughput on 1 MiB files (--rows 1m, five paired runs).
            long n = batchBuffers - offset == 1 ? channel.write(buffers[offset])
                    : channel.write(buffers, offset, batchBuffers - offset);
            if (n > 0) {
                left -= n;
                zeroWrites = 0;
                // Skip the buffers the write finished: the JDK advanced their positions to their limits.
                while (offset < batchBuffers && !buffers[offset].hasRemaining()) {
                    offset++;
                }
            } else if (++zeroWrites == MAX_ZERO_WRITES) {
                throw new IOException("write made no progress: " + MAX_ZERO_WRITES + " zero-byte writes at "
                        + (writtenBytes + batchBytes - left) + " in " + path);
            }
        }
    }

    /**
     * Releases every chunk of the batch, even if one fails to release (the first failure is returned, the others
     * suppressed in it), and drops the batch's references so that nothing released stays reachable from here.
     */
    private RuntimeException releaseBatch() {
        RuntimeException error = null;
        for (int i = 0; i < batchChunks; i++) {
            @SuppressWarnings("unchecked")
            T item = (T) batch[i];
            batch[i] = null;
            try {
                chunks.release(item);
            } catch (RuntimeException e) {
                if (error == null) {
                    error = e;
                } else {
                    error.addSuppressed(e);
                }
            }
        }
        Arrays.fill(buffers, 0, batchBuffers, null);
        batchChunks = 0;
        batchBuffers = 0;
        return error;
    }

    /** Writes a chunk that cannot be gathered fully, through {@link ChunkType#write}, at the channel's position. */
    private void writeAlone(T item, int size) throws IOException {
        int zeroWrites = 0;
        while (chunks.readable(item) > 0) {
            if (chunks.write(channel, item) > 0) {
                zeroWrites = 0;
            } else if (++zeroWrites == MAX_ZERO_WRITES) {
                throw new IOException("write made no progress: " + MAX_ZERO_WRITES + " zero-byte writes at "
                        + (writtenBytes + size - chunks.readable(item)) + " in " + path);
            }
        }
    }

    /** For assertions: whether the channel's position is {@code expected}, where the next write must land. */
    private static boolean isAt(FileChannel channel, long expected) {
        try {
            return channel.position() == expected;
        } catch (IOException e) {
            return false;
        }
    }

    private void complete() {
        FileChannel c = channel;
        assert isAt(c, writtenBytes) : "wrote " + writtenBytes + " bytes but the channel is elsewhere: " + path;
        channel = null;
        terminated = true;
        try {
            try {
                if (fsync) {
                    c.force(false);
                }
            } finally {
                c.close();
            }
        } catch (IOException | RuntimeException e) {
            listener.onFailed(e);
            return;
        }
        listener.onWritten(writtenBytes);
    }

    /** Ends the write: cancels the source unless it ended, releases the queue, closes the file, reports. */
    private void terminate(Throwable e) {
        terminated = true;
        Subscription s = upstream;
        if (s != null && !done && !upstreamCancelled) {
            upstreamCancelled = true;
            s.cancel();
        }
        if (subscribed && syncSource != null) {
            // What the source still holds is not ours (we never polled it); clearing lets it discard it.
            syncSource.clear();
        }
        releaseQueued();
        Throwable err = e;
        FileChannel c = channel;
        channel = null;
        if (c != null) {
            try {
                c.close();
            } catch (IOException | RuntimeException closeError) {
                if (err != null) {
                    err.addSuppressed(closeError);
                }
            }
        }
        if (err != null && !cancelled) {
            listener.onFailed(err);
        } else if (err != null) {
            Operators.onErrorDropped(err, context);
        }
    }

    /** After the end, a subscription that arrived late (cancel came first) is cancelled too. */
    private void cancelLateUpstream() {
        Subscription s = upstream;
        if (s != null && !done && !upstreamCancelled) {
            upstreamCancelled = true;
            s.cancel();
        }
    }

    private void releaseQueued() {
        T c = carried;
        if (c != null) {
            carried = null;
            chunks.release(c);
        }
        Queue<T> q = queue;
        if (q == null) {
            return; // fused, or never subscribed
        }
        for (T item; (item = q.poll()) != null; ) {
            chunks.release(item);
        }
    }
}
