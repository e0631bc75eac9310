package dev.sluice.files.internal;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * An executor that only queues tasks; the test runs them on its own thread when it chooses, so every interleaving
 * of a drain with the signals around it is decided by the test. Not thread-safe: one test thread uses it.
 */
final class ManualExecutor implements Executor {

    private final Queue<Runnable> tasks = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** A scheduler whose tasks land here. */
    Scheduler scheduler() {
        return Schedulers.fromExecutor(this);
    }

    /** How many tasks wait. */
    int pending() {
        return tasks.size();
    }

    /** Runs the oldest waiting task; false if there was none. */
    boolean runOne() {
        Runnable task = tasks.poll();
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /** Runs tasks, including those they schedule, until none is left; returns how many ran. */
    int runAll() {
        int ran = 0;
        while (runOne()) {
            if (++ran > 1_000_000) {
                throw new AssertionError("tasks keep scheduling tasks: more than a million ran");
            }
        }
        return ran;
    }
}
