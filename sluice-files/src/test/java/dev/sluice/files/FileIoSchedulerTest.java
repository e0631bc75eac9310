package dev.sluice.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

class FileIoSchedulerTest {

    private static final long WAIT_SECONDS = 10;

    private FileIoScheduler scheduler;

    @AfterEach
    void dispose() {
        if (scheduler != null) {
            scheduler.dispose();
        }
    }

    /** Runs {@code task} on the scheduler and waits for it; returns what it put in the reference. */
    private static <T> T onScheduler(FileIoScheduler scheduler, java.util.function.Consumer<AtomicReference<T>> task)
            throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        scheduler.schedule(() -> {
            task.accept(result);
            done.countDown();
        });
        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("task ran").isTrue();
        return result.get();
    }

    @Test
    void tasksRunOnDaemonThreadsNamedAfterTheScheduler() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        Thread thread = onScheduler(scheduler, r -> r.set(Thread.currentThread()));
        assertThat(thread.getName()).matches("files-test-[01]");
        assertThat(thread.isDaemon()).isTrue();
        assertThat(scheduler.threads()).isEqualTo(2);
    }

    @Test
    void aContinuationFromAnIdleLaneRunsNextOnTheSameThread() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 4);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> continuation = new AtomicReference<>();
        Thread first = onScheduler(scheduler, r -> {
            r.set(Thread.currentThread());
            scheduler.scheduleContinuation(() -> {
                continuation.set(Thread.currentThread());
                ran.countDown();
            });
        });
        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(continuation.get()).isSameAs(first);
    }

    @Test
    void aContinuationBehindQueuedWorkGoesToAnIdleLane() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        CountDownLatch ran = new CountDownLatch(2);
        List<Thread> threads = new ArrayList<>(List.of(Thread.currentThread(), Thread.currentThread()));
        Thread first = onScheduler(scheduler, r -> {
            r.set(Thread.currentThread());
            // The first is queued here (nothing else is); the second would wait behind it, so it goes to the idle
            // lane. (Which then, going idle, may take the first too: that is why only the second is checked.)
            scheduler.scheduleContinuation(() -> {
                threads.set(0, Thread.currentThread());
                ran.countDown();
            });
            scheduler.scheduleContinuation(() -> {
                threads.set(1, Thread.currentThread());
                ran.countDown();
            });
        });
        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(threads.get(1)).isNotSameAs(first).isNotSameAs(Thread.currentThread());
    }

    @Test
    void aPlainScheduleFromALanePrefersAnIdleLane() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> other = new AtomicReference<>();
        Thread first = onScheduler(scheduler, r -> {
            r.set(Thread.currentThread());
            // The caller goes on working after this, so its own lane counts as busy.
            scheduler.schedule(() -> {
                other.set(Thread.currentThread());
                ran.countDown();
            });
        });
        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(other.get()).isNotSameAs(first);
    }

    @Test
    void aBurstOfTasksSpreadsOverLanesWhoseThreadsAreStillStarting() throws InterruptedException {
        int threads = 4;
        scheduler = FileIoScheduler.create("files-test", threads);
        CountDownLatch started = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        // No lane has a thread yet: each task is handed to a thread being started, not queued, and still counts.
        for (int i = 0; i < threads; i++) {
            scheduler.schedule(() -> {
                ran.add(Thread.currentThread());
                started.countDown();
                await(release);
            });
        }
        boolean allStarted = started.await(WAIT_SECONDS, TimeUnit.SECONDS);
        release.countDown();
        assertThat(allStarted).as("every task started at once, one per lane").isTrue();
        assertThat(ran).hasSize(threads);
    }

    @Test
    void aLaneThatGoesIdleTakesATaskQueuedBehindABusyLane() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        AtomicReference<Thread> idleLane = new AtomicReference<>();
        AtomicReference<Thread> queuedOn = new AtomicReference<>();
        AtomicReference<Boolean> ranWhileBusy = new AtomicReference<>();
        CountDownLatch holding = new CountDownLatch(1);
        // Holds one lane until released; the busy task below goes to the other (least loaded) lane.
        scheduler.schedule(() -> {
            idleLane.set(Thread.currentThread());
            holding.countDown();
            await(release);
        });
        assertThat(holding.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        scheduler.schedule(() -> {
            // Queued behind this task on this lane (nothing else is queued here).
            scheduler.scheduleContinuation(() -> {
                queuedOn.set(Thread.currentThread());
                queuedRan.countDown();
            });
            release.countDown();
            // Stays busy until the queued task has run: only the other lane, going idle, can run it.
            ranWhileBusy.set(await(queuedRan));
        });
        for (int i = 0; i < 1000 && ranWhileBusy.get() == null; i++) {
            Thread.sleep(10);
        }
        assertThat(ranWhileBusy.get()).as("the queued task ran while its lane was busy").isTrue();
        assertThat(queuedOn.get()).isSameAs(idleLane.get());
    }

    @Test
    void aWorkersQueuedTaskIsNotTakenByAnIdleLane() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        Scheduler.Worker worker = scheduler.createWorker();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Thread> first = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        worker.schedule(() -> {
            first.set(Thread.currentThread());
            await(release);
        });
        worker.schedule(() -> {
            second.set(Thread.currentThread());
            done.countDown();
        });
        // The other lane runs a task and goes idle while the worker's second task is queued.
        Thread other = onScheduler(scheduler, r -> r.set(Thread.currentThread()));
        assertThat(other).isNotSameAs(first.get());
        // It looks for work as it goes idle, then waits: once it waits, it has passed the worker's task over.
        for (int i = 0; i < 1000 && other.getState() != Thread.State.TIMED_WAITING; i++) {
            Thread.sleep(10);
        }
        assertThat(other.getState()).isEqualTo(Thread.State.TIMED_WAITING);
        assertThat(second.get()).isNull();
        release.countDown();
        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get()).isSameAs(first.get());
        worker.dispose();
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void aContinuationFromAForeignThreadIsAPlainSchedule() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 2);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> thread = new AtomicReference<>();
        scheduler.scheduleContinuation(() -> {
            thread.set(Thread.currentThread());
            ran.countDown();
        });
        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(thread.get().getName()).startsWith("files-test-");
    }

    @Test
    void neverRunsMoreTasksAtOnceThanItHasThreads() throws InterruptedException {
        int threads = 3;
        int tasks = 30;
        scheduler = FileIoScheduler.create("files-test", threads);
        AtomicInteger active = new AtomicInteger();
        AtomicInteger mostActive = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(tasks);
        Set<String> names = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < tasks; i++) {
            scheduler.schedule(() -> {
                names.add(Thread.currentThread().getName());
                mostActive.accumulateAndGet(active.incrementAndGet(), Math::max);
                try {
                    gate.await(WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                active.decrementAndGet();
                done.countDown();
            });
        }
        // Every lane has a task blocked on the gate before it opens (bounded wait).
        for (int i = 0; i < 1000 && active.get() < threads; i++) {
            Thread.sleep(5);
        }
        assertThat(active.get()).isEqualTo(threads);
        gate.countDown();
        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(mostActive.get()).isEqualTo(threads);
        assertThat(names).hasSize(threads);
    }

    @Test
    void aWorkerRunsItsTasksInOrderOnOneThread() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 4);
        Scheduler.Worker worker = scheduler.createWorker();
        int tasks = 200;
        List<Integer> order = new ArrayList<>();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            int n = i;
            worker.schedule(() -> {
                synchronized (order) {
                    order.add(n);
                }
                threads.add(Thread.currentThread());
                done.countDown();
            });
        }
        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        worker.dispose();
        assertThat(threads).hasSize(1);
        synchronized (order) {
            assertThat(order).isSorted().hasSize(tasks);
        }
    }

    @Test
    void aTaskThatThrowsDoesNotStopItsLane() throws InterruptedException {
        scheduler = FileIoScheduler.create("files-test", 1);
        List<Throwable> handled = new ArrayList<>();
        Schedulers.onHandleError("files-test", (thread, error) -> {
            synchronized (handled) {
                handled.add(error);
            }
        });
        try {
            scheduler.schedule(() -> {
                throw new IllegalStateException("boom");
            });
            Thread after = onScheduler(scheduler, r -> r.set(Thread.currentThread()));
            assertThat(after.getName()).isEqualTo("files-test-0");
            synchronized (handled) {
                assertThat(handled).singleElement().extracting(Throwable::getMessage).isEqualTo("boom");
            }
        } finally {
            Schedulers.resetOnHandleError("files-test");
        }
    }

    @Test
    void aDisposedSchedulerRejectsTasks() {
        scheduler = FileIoScheduler.create("files-test", 2);
        scheduler.dispose();
        assertThat(scheduler.isDisposed()).isTrue();
        assertThatThrownBy(() -> scheduler.schedule(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.scheduleContinuation(() -> { }))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void theSharedSchedulerIgnoresDispose() throws InterruptedException {
        FileIoScheduler shared = FileIoScheduler.shared();
        shared.dispose();
        assertThat(shared.isDisposed()).isFalse();
        Thread thread = onScheduler(shared, r -> r.set(Thread.currentThread()));
        assertThat(thread.getName()).startsWith("sluice-files-");
        assertThat(shared.threads()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void theSharedSizeIsReadFromThePropertyAndABadValueIsAnIllegalArgument() {
        String before = System.getProperty(FileIoScheduler.THREADS_PROPERTY);
        try {
            System.clearProperty(FileIoScheduler.THREADS_PROPERTY);
            assertThat(FileIoScheduler.sharedThreads()).as("absent")
                .isEqualTo(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
            System.setProperty(FileIoScheduler.THREADS_PROPERTY, "3");
            assertThat(FileIoScheduler.sharedThreads()).isEqualTo(3);
            for (String bad : new String[] {"0", "-2", "many", ""}) {
                System.setProperty(FileIoScheduler.THREADS_PROPERTY, bad);
                // An IllegalArgumentException, not an ExceptionInInitializerError that would break every later use.
                assertThatThrownBy(FileIoScheduler::sharedThreads).as("'%s'", bad)
                        .isExactlyInstanceOf(IllegalArgumentException.class)
                        .hasMessage("-Dsluice.files.threads must be a whole number >= 1, got '" + bad + "'");
            }
        } finally {
            if (before == null) {
                System.clearProperty(FileIoScheduler.THREADS_PROPERTY);
            } else {
                System.setProperty(FileIoScheduler.THREADS_PROPERTY, before);
            }
        }
    }

    @Test
    void timedSchedulingIsRefused() {
        scheduler = FileIoScheduler.create("files-test", 1);
        assertThatThrownBy(() -> scheduler.schedule(() -> { }, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> FileIoScheduler.create("x", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("threads < 1: 0");
        assertThatThrownBy(() -> FileIoScheduler.create(null, 1)).isInstanceOf(NullPointerException.class);
    }
}
