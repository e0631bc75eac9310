package dev.sluice.files.internal;

import dev.sluice.files.FileIoScheduler;
import reactor.core.scheduler.Scheduler;

/** How the drains hand themselves to a scheduler: continuations stay on their thread where the scheduler allows. */
final class Schedules {

    private Schedules() {
    }

    /**
     * Schedules {@code task}; a {@code continuation} (the caller's task ends right after) goes through {@link
     * FileIoScheduler#scheduleContinuation} when the scheduler is one, and through {@link Scheduler#schedule}
     * otherwise.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler refuses the task
     */
    static void schedule(Scheduler scheduler, Runnable task, boolean continuation) {
        if (continuation && scheduler instanceof FileIoScheduler files) {
            files.scheduleContinuation(task);
        } else {
            scheduler.schedule(task);
        }
    }
}
