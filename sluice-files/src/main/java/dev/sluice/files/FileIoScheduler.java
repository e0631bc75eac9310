package dev.sluice.files;

import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A fixed number of threads for blocking file I/O, which keeps the successive tasks of a file on one thread when
 * it can: the default scheduler of {@link ReactiveFiles}.
 *
 * <p>Each thread is a <em>lane</em> with a queue of its own. A task scheduled from outside goes to the least loaded
 * lane (queued tasks plus the running one), so independent files spread over the threads. A task scheduled with
 * {@link #scheduleContinuation} from one of the lanes, as the last thing the running task does, stays on that lane
 * when nothing else is queued there: it runs next, and no other thread has to be woken for it. That is what makes
 * small files cheap. With {@code Schedulers.boundedElastic()}, the write of a file that starts as the previous one
 * completes always lands on another thread. That costs a wake-up, tens of microseconds, against about ten for
 * creating and writing a 1 KiB file in the page cache.
 *
 * <p>Threads are daemons, started on first use and stopped after {@value #KEEP_ALIVE_SECONDS} s idle. A task
 * that throws is reported to {@link Schedulers#onHandleError} and does not stop its lane. Workers ({@link
 * #createWorker()}) run their tasks in order on one lane. No time-based scheduling: the delayed and periodic
 * methods throw {@link java.util.concurrent.RejectedExecutionException}, as for any scheduler made from a plain
 * executor. Thread-safe.
 */
public final class FileIoScheduler implements Scheduler {

    /** How long an idle lane keeps its thread. */
    static final long KEEP_ALIVE_SECONDS = 60;

    /**
     * The system property that sizes {@link #shared()}; by default twice the processors, at least 4. Buffered writes
     * mostly copy into the page cache, so more threads than cores add little there. But a write blocked on
     * write-back throttling, a {@code force} or a slow device waits off-CPU, and more lanes keep the others going.
     */
    public static final String THREADS_PROPERTY = "sluice.files.threads";

    private static final class Shared {
        static final FileIoScheduler INSTANCE = new FileIoScheduler("sluice-files", sharedThreads(), true);
    }

    private final String name;
    private final Lane[] lanes;
    private final boolean shared;

    private FileIoScheduler(String name, int threads, boolean shared) {
        this.name = name;
        this.shared = shared;
        this.lanes = new Lane[threads];
        for (int i = 0; i < threads; i++) {
            lanes[i] = new Lane(this, i);
        }
    }

    /**
     * The process-wide instance, with threads named {@code sluice-files-N}; sized by {@value #THREADS_PROPERTY}.
     * {@link #dispose()} does nothing on it: other users share it.
     */
    public static FileIoScheduler shared() {
        return Shared.INSTANCE;
    }

    /**
     * A scheduler of its own, with {@code threads} lanes whose threads are named {@code name-N}; dispose it when
     * done.
     *
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public static FileIoScheduler create(String name, int threads) {
        Objects.requireNonNull(name, "name");
        if (threads < 1) {
            throw new IllegalArgumentException("threads < 1: " + threads);
        }
        return new FileIoScheduler(name, threads, false);
    }

    private static int sharedThreads() {
        int fallback = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        String value = System.getProperty(THREADS_PROPERTY);
        if (value == null) {
            return fallback;
        }
        try {
            int threads = Integer.parseInt(value.trim());
            if (threads >= 1) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + THREADS_PROPERTY + " is not a thread count >= 1: " + value);
    }

    /** The number of lanes (threads at most). */
    public int threads() {
        return lanes.length;
    }

    /** Runs {@code task} on the least loaded lane. */
    @Override
    public Disposable schedule(Runnable task) {
        return leastLoaded(null).scheduler.schedule(task);
    }

    /**
     * Runs {@code task} as the continuation of the task running on the calling thread: if the caller is one of this
     * scheduler's lanes and has nothing queued, the task runs there right after the current one; otherwise as
     * {@link #schedule(Runnable)}. Call it as the last thing the current task does; work the current task does
     * after it delays the continuation.
     */
    public Disposable scheduleContinuation(Runnable task) {
        Lane own = currentLane();
        if (own != null && own.getQueue().isEmpty()) {
            return own.scheduler.schedule(task);
        }
        return leastLoaded(own).scheduler.schedule(task);
    }

    /** A worker on the least loaded lane: its tasks run one at a time, in order, on that lane. */
    @Override
    public Worker createWorker() {
        return leastLoaded(null).scheduler.createWorker();
    }

    /** The calling thread's lane, if it is one of ours. */
    private Lane currentLane() {
        return Thread.currentThread() instanceof LaneThread t && t.lane.owner == this ? t.lane : null;
    }

    /**
     * The lane with the fewest tasks, queued or running; ties go to {@code preferred} (a lane whose running task is
     * ending), else to the first found from a random start, so that idle lanes share the work.
     */
    private Lane leastLoaded(Lane preferred) {
        int n = lanes.length;
        if (n == 1) {
            return lanes[0];
        }
        Lane best = preferred;
        int bestLoad = preferred == null ? Integer.MAX_VALUE : preferred.load() - 1;
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < n && bestLoad > 0; k++) {
            Lane lane = lanes[(start + k) % n];
            int load = lane.load();
            if (load < bestLoad) {
                best = lane;
                bestLoad = load;
            }
        }
        return best;
    }

    /** Stops every lane: queued tasks are dropped and new ones rejected. Does nothing on {@link #shared()}. */
    @Override
    public void dispose() {
        if (shared) {
            return;
        }
        for (Lane lane : lanes) {
            lane.scheduler.dispose();
        }
    }

    @Override
    public boolean isDisposed() {
        return !shared && lanes[0].scheduler.isDisposed();
    }

    @Override
    public void init() {
        // Threads start on first use.
    }

    @Override
    public String toString() {
        return "FileIoScheduler(" + name + ", " + lanes.length + " threads)";
    }

    /** One thread and its queue; knows whether a task is running, so that its load counts it. */
    private static final class Lane extends ThreadPoolExecutor {

        final FileIoScheduler owner;
        /** The lane as a Reactor scheduler: task wrapping, cancellation, error hooks and ordered workers. */
        final Scheduler scheduler;
        private volatile boolean running;

        Lane(FileIoScheduler owner, int index) {
            super(1, 1, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
            this.owner = owner;
            String threadName = owner.name + "-" + index;
            setThreadFactory(r -> new LaneThread(this, r, threadName));
            allowCoreThreadTimeOut(true);
            this.scheduler = Schedulers.fromExecutorService(this, threadName);
        }

        /** Tasks queued, plus the one running. */
        int load() {
            return getQueue().size() + (running ? 1 : 0);
        }

        @Override
        protected void beforeExecute(Thread t, Runnable r) {
            running = true;
        }

        @Override
        protected void afterExecute(Runnable r, Throwable t) {
            running = false;
        }
    }

    /** A lane's thread: it knows its lane, so a continuation can find it. */
    private static final class LaneThread extends Thread {

        final Lane lane;

        LaneThread(Lane lane, Runnable task, String name) {
            super(task, name);
            this.lane = lane;
            setDaemon(true);
        }
    }
}
