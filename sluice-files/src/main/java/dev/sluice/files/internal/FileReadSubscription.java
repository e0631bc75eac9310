package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;

/**
 * One subscriber's read of a file: opens it on the scheduler as soon as the subscriber has its subscription, then
 * reads chunks at absolute positions, one read at a time, only while the subscriber has demand, and completes at the
 * end of the file.
 *
 * <h2>Threads</h2>
 * {@link #request} and {@link #cancel} may come from any thread; they add demand or note the cancel and wake the
 * <em>drain</em>, which runs on the scheduler, one run at a time (a work-in-progress counter guarantees it), and
 * does all the I/O and all the signalling. The counter is held while the subscriber's {@code onSubscribe} runs, so
 * no signal can overtake it (Reactive Streams rule 1.3). A run emits at most {@value #READS_PER_RUN} chunks before
 * yielding its thread; with no demand it ends, so nothing spins.
 *
 * <h2>Ends</h2>
 * The file is closed on completion, on error and on cancel (even when no read is in progress: the cancel wakes the
 * drain to close it), and the subscriber reference is dropped (rule 3.13). The end of the file is the first read
 * that returns -1, or the position reaching the file's size (checked again before completing, so a file that grows
 * while read is read on); an empty file completes without demand. {@code request(n <= 0)} fails the subscriber with
 * an {@link IllegalArgumentException} (rule 3.9). A chunk read but not delivered (cancel during the read) is
 * released.
 *
 * @param <T> the chunk type
 */
public final class FileReadSubscription<T> implements Subscription, Runnable {

    /** Chunks emitted by one drain run before it yields its thread to other subscriptions. */
    static final int READS_PER_RUN = 16;

    /** Consecutive zero-byte reads after which a read is deemed stuck; a blocking file read never returns 0. */
    private static final int MAX_ZERO_READS = 16;

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<FileReadSubscription> WIP =
            AtomicIntegerFieldUpdater.newUpdater(FileReadSubscription.class, "wip");
    @SuppressWarnings("rawtypes")
    private static final AtomicLongFieldUpdater<FileReadSubscription> REQUESTED =
            AtomicLongFieldUpdater.newUpdater(FileReadSubscription.class, "requested");

    private final Path path;
    private final ChunkType<T> chunks;
    private final int chunkSize;
    private final ChannelOpener opener;
    private final Scheduler scheduler;

    /** Nulled at the end so that a cancelled subscriber can be collected (rule 3.13). */
    private CoreSubscriber<? super T> actual;

    private volatile int wip;
    /** Demand so far, saturating at {@link Long#MAX_VALUE} (unbounded). */
    private volatile long requested;
    private volatile boolean cancelled;
    /** Whether a non-positive request came; {@link #badRequestValue} (written first) says which. */
    private volatile boolean badRequest;
    private long badRequestValue;
    private volatile Throwable rejected;

    // Owned by the drain.
    private FileChannel channel;
    private long position;
    private long size;
    /** A read returned -1: the end of the file, whatever its size says. */
    private boolean eof;
    private long emitted;
    private boolean terminated;

    /**
     * A read of {@code path} in chunks of {@code chunkSize} bytes (the last one may be shorter) for {@code actual};
     * {@link #start()} begins it.
     */
    public FileReadSubscription(CoreSubscriber<? super T> actual, Path path, ChunkType<T> chunks, int chunkSize,
            ChannelOpener opener, Scheduler scheduler) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunkSize < 1: " + chunkSize);
        }
        this.actual = Objects.requireNonNull(actual, "actual");
        this.path = Objects.requireNonNull(path, "path");
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.chunkSize = chunkSize;
        this.opener = Objects.requireNonNull(opener, "opener");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** Gives the subscriber its subscription, then opens the file on the scheduler. Call once. */
    public void start() {
        // Hold the drain while onSubscribe runs: requests made inside it only count up, nothing is emitted yet.
        WIP.lazySet(this, 1);
        actual.onSubscribe(this);
        // Subscription is the last thing the subscribing task does: the drain can follow it on the same thread.
        dispatch(true);
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            if (!badRequest) {
                badRequestValue = n;
                badRequest = true;
            }
        } else {
            Operators.addCap(REQUESTED, this, n);
        }
        schedule();
    }

    @Override
    public void cancel() {
        cancelled = true;
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
            rejected = e;
            // We hold the drain: run it here. With the rejection set it only fails the subscriber and closes.
            run();
        }
    }

    @Override
    public void run() {
        int missed = 1;
        for (;;) {
            if (!terminated && !drain()) {
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
        int budget = READS_PER_RUN;
        for (;;) {
            if (cancelled) {
                terminate();
                return true;
            }
            Throwable r = rejected;
            if (r != null) {
                fail(r);
                return true;
            }
            if (badRequest) {
                fail(new IllegalArgumentException(
                        "request(n) with n <= 0 (Reactive Streams rule 3.9): " + badRequestValue));
                return true;
            }
            if (channel == null) {
                try {
                    channel = opener.open(path, Set.of(StandardOpenOption.READ));
                    size = channel.size();
                } catch (IOException | RuntimeException e) {
                    fail(e);
                    return true;
                }
            }
            try {
                if (atEnd()) {
                    closeChannel();
                    terminated = true;
                    CoreSubscriber<? super T> a = actual;
                    actual = null;
                    a.onComplete();
                    return true;
                }
            } catch (IOException e) {
                fail(e);
                return true;
            }
            if (emitted == requested) {
                return true;
            }
            if (budget-- == 0) {
                try {
                    Schedules.schedule(scheduler, this, true);
                    return false;
                } catch (RejectedExecutionException e) {
                    rejected = e;
                    continue;
                }
            }
            T chunk = readChunk();
            if (chunk == null) {
                return true; // failed and terminated
            }
            if (chunks.readable(chunk) == 0) {
                // The file ended where a chunk should have started (it shrank): the end, not an empty chunk.
                chunks.release(chunk);
                continue;
            }
            if (cancelled) {
                chunks.release(chunk);
                continue;
            }
            emitted++;
            actual.onNext(chunk);
        }
    }

    /** Whether the position has reached the end; re-reads the size before saying yes, in case the file grew. */
    private boolean atEnd() throws IOException {
        if (eof) {
            return true;
        }
        if (position < size) {
            return false;
        }
        size = channel.size();
        return position >= size;
    }

    /** Reads the next chunk; null if the read failed (the subscriber has been told). */
    private T readChunk() {
        // The last chunk is sized to what is left, so small files do not pin a whole chunk each.
        int capacity = (int) Math.min(chunkSize, size - position);
        T chunk = chunks.allocate(capacity);
        try {
            int zeroReads = 0;
            while (chunks.writable(chunk) > 0) {
                int n = chunks.read(channel, chunk, position);
                if (n < 0) {
                    eof = true; // the file ended early (it shrank): this chunk is the last
                    break;
                } else if (n > 0) {
                    position += n;
                    zeroReads = 0;
                } else if (++zeroReads == MAX_ZERO_READS) {
                    throw new IOException("read made no progress: " + MAX_ZERO_READS + " zero-byte reads at "
                            + position + " in " + path);
                }
            }
        } catch (IOException | RuntimeException e) {
            chunks.release(chunk);
            fail(e);
            return null;
        }
        return chunks.flip(chunk);
    }

    private void fail(Throwable e) {
        closeChannel();
        terminated = true;
        CoreSubscriber<? super T> a = actual;
        actual = null;
        a.onError(e);
    }

    private void terminate() {
        closeChannel();
        terminated = true;
        actual = null;
    }

    private void closeChannel() {
        FileChannel c = channel;
        channel = null;
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // Nothing was written through it; a failed close of a read-only channel loses nothing.
            }
        }
    }
}
