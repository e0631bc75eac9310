package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Races on one limiter: the compare-and-set must lose no update and grant nothing twice, so that concurrent callers
 * get exactly what the same calls made one after another would get.
 */
class RateLimiterConcurrencyTest {

    private static final int THREADS = 4;
    private static final long T0 = 1_000_000_000L;

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void shutdown() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Runs {@code task(thread)} on every thread at once, after a common start signal. */
    private void race(ThreadTask task) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int thread = i;
            futures.add(pool.submit(() -> {
                start.await();
                task.run(thread);
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    @FunctionalInterface
    private interface ThreadTask {
        void run(int thread) throws Exception;
    }

    @Test
    void concurrentAllowsGrantExactlyTheBurst() throws Exception {
        int burst = 10_000;
        // A zero rate at one instant: whatever the interleaving, exactly the burst is granted.
        RateLimiter lim = RateLimiter.create(0, burst);
        AtomicInteger granted = new AtomicInteger();
        race(thread -> {
            for (int i = 0; i < burst; i++) {
                if (lim.allowN(T0, 1)) {
                    granted.incrementAndGet();
                }
            }
        });
        assertThat(granted).hasValue(burst);
        assertThat(lim.tokensAt(T0)).isEqualTo(0.0);
    }

    @Test
    void concurrentReservationsQueueAsSequentialOnesWould() throws Exception {
        int perThread = 2_500;
        RateLimiter lim = RateLimiter.create(7, 3);
        long[][] delays = new long[THREADS][perThread];
        race(thread -> {
            for (int i = 0; i < perThread; i++) {
                delays[thread][i] = lim.reserveN(T0, 1).delayFrom(T0);
            }
        });
        long[] concurrent = Arrays.stream(delays).flatMapToLong(Arrays::stream).sorted().toArray();

        RateLimiter sequential = RateLimiter.create(7, 3);
        long[] expected = new long[THREADS * perThread];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = sequential.reserveN(T0, 1).delayFrom(T0);
        }
        assertThat(concurrent).containsExactly(expected);
        assertThat(lim.tokensAt(T0)).isEqualTo(sequential.tokensAt(T0));
    }
}
