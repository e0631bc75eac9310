package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Fuseable;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;
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
 * <h2>Batches</h2>
 * The drain writes in {@link GatheringBatch batches}: what waits in the {@link ChunkBacklog} (queued, or made by a
 * source that fuses synchronously, {@link Fuseable#SYNC}, as the drain polls it) goes out in one gathering write at
 * the channel's position, and the demand controller hears once of the whole batch. A fused source is not asked for
 * chunks at all: the drain polls it, on its own thread, so the writer does not ask for a thread barrier.
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
 * <p>A little over 400 lines, on purpose: what is left is the subscription's one state machine (signals, the drain,
 * the ends), whose fields every part reads; the batch and the backlog are already rooms of their own.
 *
 * @param <T> the chunk type
 */
public final class FileWriteSubscriber<T> implements CoreSubscriber<T>, Runnable {

    /** Chunks written by one drain run before it yields its thread to other subscriptions. */
    static final int WRITES_PER_RUN = 32;

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<FileWriteSubscriber> WIP =
            AtomicIntegerFieldUpdater.newUpdater(FileWriteSubscriber.class, "wip");
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<FileWriteSubscriber, Subscription> UPSTREAM =
            AtomicReferenceFieldUpdater.newUpdater(FileWriteSubscriber.class, Subscription.class, "upstream");

    private final ChunkType<T> chunks;
    private final Scheduler scheduler;
    private final GreedDemand demand;
    private final WriteListener listener;
    private final Context context;
    private final int maxItems;
    /** The chunks not yet written; its mode (queued or fused) is settled in {@code onSubscribe}, before subscribed. */
    private final ChunkBacklog<T> backlog;
    /** The file and the batches it is written in; drain only. */
    private final GatheringBatch<T> batch;

    private volatile Subscription upstream;
    /** {@code onSubscribe} has settled the {@link #backlog}'s mode; until then the drain leaves the source be. */
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

    /** Owned by the drain. */
    private boolean upstreamCancelled;

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
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(openOptions, "openOptions");
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        Objects.requireNonNull(opener, "opener");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.demand = Objects.requireNonNull(demand, "demand");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.context = Objects.requireNonNull(context, "context");
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems < 1: " + maxItems);
        }
        this.maxItems = maxItems;
        this.backlog = new ChunkBacklog<>(chunks);
        this.batch = new GatheringBatch<>(path, openOptions, fsync, opener, chunks, demand);
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
        backlog.settle(s, maxItems);
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
        if (!backlog.offer(item)) {
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
                backlog.release();
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
            if (!batch.isOpen()) {
                if (!open(s)) {
                    return true;
                }
                continue;
            }
            T item;
            if (backlog.fused()) {
                try {
                    item = backlog.pollSource();
                } catch (RuntimeException e) {
                    terminate(e);
                    return true;
                }
                if (item == null) {
                    done = true;
                    complete();
                    return true;
                }
            } else {
                item = backlog.pollQueued();
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
            if (!backlog.fused()) {
                // Once per batch: its chunks completed together, and the backlog is what they left behind.
                long written = batch.written();
                long n = demand.onWritten(requested - written, received - written,
                        receivedBytes - batch.writtenBytes(), largestItem);
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
            batch.open();
        } catch (IOException | RuntimeException e) {
            terminate(e);
            return false;
        }
        if (!backlog.fused()) {
            long n = demand.initial();
            requested = n;
            s.request(n);
        }
        return true;
    }

    /**
     * Writes {@code first} and, in the same gathering write, what follows it within the batch limits and the run's
     * {@code budget} of chunks; then releases and counts them.
     *
     * @return the number of chunks written, at least 1, or -1 if the write failed (the writer has terminated)
     */
    private int write(T first, int budget) {
        int count = -1;
        Throwable failed = null;
        try {
            count = batch.write(first, Math.min(GatheringBatch.MAX_BATCH_CHUNKS, budget), backlog);
        } catch (IOException | RuntimeException e) {
            failed = e;
        }
        // A fused source that ran dry while the batch filled has ended: done says so before a termination reads it
        // (it does not cancel a source that ended).
        if (backlog.sourceEnded()) {
            done = true;
        }
        if (failed != null) {
            terminate(failed);
        }
        return count;
    }

    private void complete() {
        terminated = true;
        try {
            batch.finish();
        } catch (IOException | RuntimeException e) {
            listener.onFailed(e);
            return;
        }
        listener.onWritten(batch.writtenBytes());
    }

    /** Ends the write: cancels the source unless it ended, releases the queue, closes the file, reports. */
    private void terminate(Throwable e) {
        terminated = true;
        Subscription s = upstream;
        if (s != null && !done && !upstreamCancelled) {
            upstreamCancelled = true;
            s.cancel();
        }
        if (subscribed) {
            backlog.clearSource();
        }
        backlog.release();
        batch.close(e);
        if (e != null && !cancelled) {
            listener.onFailed(e);
        } else if (e != null) {
            Operators.onErrorDropped(e, context);
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
}
