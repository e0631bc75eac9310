package dev.sluice.files;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A fixed number of threads for blocking file I/O, which keeps the successive tasks of a file on one thread when
 * it can: the default scheduler of {@link ReactiveFiles}.
 *
 * <p>Each thread is a <em>lane</em> with a queue of its own. A task scheduled from outside goes to the least loaded
 * lane (fewest tasks given to it and not yet finished), so independent files spread over the threads. A task
 * scheduled with {@link #scheduleContinuation} from one of the lanes, as the last thing the running task does, stays
 * on that lane when nothing else is queued there: it runs next, and no other thread has to be woken for it. That is
 * what makes small files cheap. With {@code Schedulers.boundedElastic()}, the write of a file that starts as the
 * previous one completes always lands on another thread. That costs a wake-up, tens of microseconds, against about
 * ten for creating and writing a 1 KiB file in the page cache.
 *
 * <p>A lane that runs out of work takes the oldest task queued for {@link #schedule} or {@link
 * #scheduleContinuation} on the busiest other lane before it waits for work of its own. Placement is decided when a
 * task is queued, and lanes finish their tasks at different speeds, so without this a batch of files spread evenly
 * over the lanes ends with some lanes idle while others still have files queued: on a hundred 1 MiB files written at
 * once on two cores, that tail cost about 3% of the throughput. A lane only takes work as it goes idle, so it never
 * wakes to take a continuation from a running lane. A worker's tasks ({@link #createWorker()}) are never taken: they
 * stay on their lane, in order.
 *
 * <p>Threads are daemons, started on first use and stopped after {@value #KEEP_ALIVE_SECONDS} s idle. A task
 * that throws is reported to {@link Schedulers#onHandleError} and does not stop its lane. Workers ({@link
 * #createWorker()}) run their tasks in order on one lane. No time-based scheduling: the delayed and periodic
 * methods throw {@link java.util.concurrent.RejectedExecutionException}, as for any scheduler made from a plain
 * executor. Thread-safe.
 *
 * <p>One file, a little past the usual size, on purpose: the lanes, their shared queue and their threads are one
 * mechanism (a lane steals from another through the queue and finds its own lane through its thread), read
 * together or not at all.
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

    /** Made by the first {@link #shared()} call that finds a valid {@value #THREADS_PROPERTY}. */
    private static volatile FileIoScheduler sharedInstance;

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
     * The process-wide instance, with threads named {@code sluice-files-N}; sized by {@value #THREADS_PROPERTY}
     * ({@link #sharedThreads()}) on first use. {@link #dispose()} does nothing on it: other users share it.
     *
     * @throws IllegalArgumentException if it does not exist yet and {@value #THREADS_PROPERTY} is not a whole
     *                                  number {@code >= 1} (checked again at each call until it exists)
     */
    public static FileIoScheduler shared() {
        FileIoScheduler s = sharedInstance;
        return s != null ? s : startShared();
    }

    private static synchronized FileIoScheduler startShared() {
        if (sharedInstance == null) {
            sharedInstance = new FileIoScheduler("sluice-files", sharedThreads(), true);
        }
        return sharedInstance;
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

    /**
     * The threads {@value #THREADS_PROPERTY} asks for now: what {@link #shared()} is made with on first use (once
     * made, it keeps its size). Twice the processors, at least 4, when the property is absent. Lets an application
     * check the property before it starts anything.
     *
     * @throws IllegalArgumentException if the property is set to anything but a whole number {@code >= 1}
     */
    public static int sharedThreads() {
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
        throw new IllegalArgumentException("-D" + THREADS_PROPERTY + " must be a whole number >= 1, got '" + value
            + "'");
    }

    /** The number of lanes (threads at most). */
    public int threads() {
        return lanes.length;
    }

    /** Runs {@code task} on the least loaded lane, or on a lane that goes idle before that one reaches it. */
    @Override
    public Disposable schedule(Runnable task) {
        return leastLoaded(null).tasks.schedule(task);
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
            return own.tasks.schedule(task);
        }
        return leastLoaded(own).tasks.schedule(task);
    }

    /** A worker on the least loaded lane: its tasks run one at a time, in order, on that lane. */
    @Override
    public Worker createWorker() {
        return leastLoaded(null).pinned.createWorker();
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
            lane.shutdownNow();
        }
    }

    @Override
    public boolean isDisposed() {
        return !shared && lanes[0].isShutdown();
    }

    @Override
    public void init() {
        // Threads start on first use.
    }

    @Override
    public String toString() {
        return "FileIoScheduler(" + name + ", " + lanes.length + " threads)";
    }

    /**
     * One thread and its queue; counts the tasks it has been given and not finished, its load. It is seen by Reactor
     * twice: {@link #tasks} queues a task that an idle lane may take, {@link #pinned} one that only this lane runs.
     */
    private static final class Lane extends ThreadPoolExecutor {

        final FileIoScheduler owner;
        /** Runs {@link FileIoScheduler#schedule} and continuations: task wrapping, cancellation, error hooks. */
        final Scheduler tasks;
        /** Runs workers' tasks: they must run in order, so they stay here. */
        final Scheduler pinned;
        /**
         * Tasks given to this lane and not finished: queued, running, or handed to a thread that is starting (which
         * neither the queue nor a running flag would show yet, so a burst of tasks would pile onto one lane).
         */
        private final AtomicInteger load = new AtomicInteger();

        Lane(FileIoScheduler owner, int index) {
            super(1, 1, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new LaneQueue(owner));
            this.owner = owner;
            queue().lane = this;
            String threadName = owner.name + "-" + index;
            setThreadFactory(r -> new LaneThread(this, r, threadName));
            allowCoreThreadTimeOut(true);
            this.tasks = Schedulers.fromExecutorService(new Shareable(this), threadName);
            this.pinned = Schedulers.fromExecutorService(this, threadName);
        }

        LaneQueue queue() {
            return (LaneQueue) getQueue();
        }

        int load() {
            return load.get();
        }

        @Override
        public void execute(Runnable command) {
            load.incrementAndGet();
            try {
                super.execute(command);
            } catch (RejectedExecutionException e) {
                load.decrementAndGet();
                throw e;
            }
        }

        @Override
        protected void afterExecute(Runnable r, Throwable t) {
            load.decrementAndGet();
        }
    }

    /** A task another lane may run: the mark that {@link LaneQueue#takeShared} looks for. */
    private static final class SharedTask<T> extends FutureTask<T> {

        SharedTask(Callable<T> callable) {
            super(callable);
        }

        SharedTask(Runnable runnable, T result) {
            super(runnable, result);
        }
    }

    /** A lane as an executor of {@link SharedTask}s, for {@link Lane#tasks}; its life cycle is the lane's. */
    private static final class Shareable extends AbstractExecutorService {

        private final Lane lane;

        Shareable(Lane lane) {
            this.lane = lane;
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
            return new SharedTask<>(callable);
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
            return new SharedTask<>(runnable, value);
        }

        @Override
        public void execute(Runnable command) {
            lane.execute(command instanceof SharedTask ? command : new SharedTask<>(command, null));
        }

        @Override
        public void shutdown() {
            lane.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return lane.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return lane.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return lane.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return lane.awaitTermination(timeout, unit);
        }
    }

    /**
     * A lane's queue. When its lane's thread asks for a task and it has none, it takes a {@link SharedTask} from the
     * busiest other lane before waiting.
     */
    private static final class LaneQueue extends LinkedBlockingQueue<Runnable> {

        private final FileIoScheduler owner;
        /** This queue's lane; set once, before the lane runs anything. */
        Lane lane;

        LaneQueue(FileIoScheduler owner) {
            this.owner = owner;
        }

        @Override
        public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
            Runnable task = poll();
            if (task == null) {
                task = takeFromBusiest();
            }
            return task != null ? task : super.poll(timeout, unit);
        }

        @Override
        public Runnable take() throws InterruptedException {
            Runnable task = poll();
            if (task == null) {
                task = takeFromBusiest();
            }
            return task != null ? task : super.take();
        }

        private Runnable takeFromBusiest() {
            Lane busiest = null;
            int most = 0;
            for (Lane other : owner.lanes) {
                int queued = other.getQueue().size();
                if (other != lane && queued > most && !other.isShutdown()) {
                    busiest = other;
                    most = queued;
                }
            }
            Runnable task = busiest == null ? null : busiest.queue().takeShared();
            if (task != null) {
                // The task is this lane's now: it finishes here.
                busiest.load.decrementAndGet();
                lane.load.incrementAndGet();
            }
            return task;
        }

        /** Removes and returns the oldest {@link SharedTask}, or null if there is none. */
        private Runnable takeShared() {
            for (Runnable task : this) {
                // remove() decides the race with this lane's own thread: only one of the two gets the task.
                if (task instanceof SharedTask && remove(task)) {
                    return task;
                }
            }
            return null;
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
