package dev.sluice.limits.redis;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * A {@link VirtualTimeScheduler} that also reports every delayed task it is given, so that a test can wait until a
 * timer has been set (by a Redis reply arriving on Lettuce's thread) before it moves virtual time.
 */
final class RecordingScheduler implements Scheduler {

    final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final LinkedBlockingQueue<Long> delays = new LinkedBlockingQueue<>();

    /** The delay in nanoseconds of the next timer set, waiting up to 10 s for it; null if none was. */
    Long nextDelay() throws InterruptedException {
        return delays.poll(10, TimeUnit.SECONDS);
    }

    /** Forgets the timers set so far. */
    void clear() {
        delays.clear();
    }

    @Override
    public Disposable schedule(Runnable task) {
        return time.schedule(task);
    }

    @Override
    public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
        Disposable d = time.schedule(task, delay, unit);
        delays.add(unit.toNanos(delay));
        return d;
    }

    @Override
    public Worker createWorker() {
        return time.createWorker();
    }

    @Override
    public void dispose() {
        time.dispose();
    }
}
