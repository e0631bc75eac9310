package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.test.scheduler.VirtualTimeScheduler;

class KeyedRateLimiterTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 3_000_000_000L;

    @Test
    void keysHaveTheirOwnBuckets() {
        KeyedRateLimiter<String> lim = KeyedRateLimiter.builder(10, 2).build();
        assertThat(lim.allowN("a", T0, 2)).isTrue();
        assertThat(lim.allowN("a", T0, 1)).isFalse();
        assertThat(lim.allowN("b", T0, 2)).as("b is not charged for a").isTrue();
        assertThat(lim.tokensAt("a", T0 + 50 * MS)).isEqualTo(0.5);
        assertThat(lim.tokensAt("never-seen", T0)).isEqualTo(2.0);
        assertThat(lim.reserveN("a", T0, 1, RateLimiter.INF_DURATION).delayFrom(T0)).isEqualTo(100 * MS);
        assertThat(lim.size()).isEqualTo(2);
    }

    /**
     * Eviction changes no decision: a keyed limiter that evicts at every step answers exactly as one plain
     * limiter per key that forgets nothing, over a seeded random sequence of calls at non-decreasing times.
     */
    @Test
    void evictionIsInvisible() {
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.builder(50, 3).maxKeys(20).build();
        Map<Integer, RateLimiter> reference = new HashMap<>();
        List<Reservation> keyedReservations = new ArrayList<>();
        List<Reservation> referenceReservations = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(7);
        long now = T0;
        int evicted = 0;
        for (int i = 0; i < 50_000; i++) {
            now += random.nextInt(4) == 0 ? random.nextLong(200 * MS) : random.nextLong(MS);
            int key = random.nextInt(20);
            RateLimiter ref = reference.computeIfAbsent(key, k -> RateLimiter.create(50, 3));
            int n = random.nextInt(5);
            String step = "step " + i + " key " + key + " n " + n;
            switch (random.nextInt(5)) {
                case 0:
                case 1:
                    assertThat(keyed.allowN(key, now, n)).as(step).isEqualTo(ref.allowN(now, n));
                    break;
                case 2: {
                    long maxWait = random.nextLong(100 * MS);
                    Reservation k = keyed.reserveN(key, now, n, maxWait);
                    Reservation r = ref.reserveN(now, n, maxWait);
                    assertThat(k.ok()).as(step).isEqualTo(r.ok());
                    assertThat(k.delayFrom(now)).as(step).isEqualTo(r.delayFrom(now));
                    keyedReservations.add(k);
                    referenceReservations.add(r);
                    break;
                }
                case 3:
                    if (!keyedReservations.isEmpty()) {
                        int which = random.nextInt(keyedReservations.size());
                        keyedReservations.get(which).cancelAt(now);
                        referenceReservations.get(which).cancelAt(now);
                    }
                    break;
                default:
                    evicted += keyed.evictIdle(now);
                    break;
            }
            for (Map.Entry<Integer, RateLimiter> e : reference.entrySet()) {
                assertThat(keyed.tokensAt(e.getKey(), now)).as(step).isEqualTo(e.getValue().tokensAt(now));
            }
        }
        assertThat(evicted).as("buckets evicted along the way").isGreaterThan(1000);
    }

    @Test
    void aFullTableRefusesNewKeysAndServesKnownOnes() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        KeyedRateLimiter<String> lim = KeyedRateLimiter.builder(1, 1).maxKeys(2)
                .clock(() -> vts.now(TimeUnit.NANOSECONDS)).scheduler(vts).build();
        assertThat(lim.allow("a")).isTrue();
        assertThat(lim.allow("b")).isTrue();
        assertThat(lim.allow("c")).as("new key, table full of used buckets").isFalse();
        assertThat(lim.reserve("c").ok()).isFalse();
        AtomicReference<Throwable> error = new AtomicReference<>();
        lim.waitN("c", 1, Duration.ofSeconds(10)).subscribe(v -> { }, error::set);
        assertThat(error.get()).isInstanceOf(RateLimitedException.class)
                .hasMessage("key table full: maxKeys=2");
        assertThat(lim.size()).isEqualTo(2);
        // A second later both buckets are full again and may go: the new key gets in.
        vts.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(lim.allow("c")).isTrue();
        assertThat(lim.size()).isLessThanOrEqualTo(2);
    }

    @Test
    void waitPerKeyFailsAtOnceWhenTheDeadlineIsTooClose() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        KeyedRateLimiter<String> lim = KeyedRateLimiter.builder(10, 1)
                .clock(() -> vts.now(TimeUnit.NANOSECONDS)).scheduler(vts).build();
        assertThat(lim.allow("a")).isTrue();
        AtomicReference<Throwable> error = new AtomicReference<>();
        AtomicInteger completed = new AtomicInteger();
        lim.waitN("a", 1, Duration.ofMillis(50)).subscribe(v -> { }, error::set);
        assertThat(error.get()).hasMessage("tokens not available within timeout: n=1, timeout=50000000ns");
        lim.waitN("a", 1, Duration.ofMillis(100)).subscribe(v -> { }, error::set, completed::incrementAndGet);
        lim.waitNUntil("b", 0, 1, 0).subscribe(v -> { }, error::set, completed::incrementAndGet);
        assertThat(completed).as("b had its token at once").hasValue(1);
        vts.advanceTimeBy(Duration.ofMillis(100));
        assertThat(completed).as("a got the next token at 100 ms").hasValue(2);
    }

    @Test
    void racingCallersNeverGetMoreThanABurstPerKey() throws Exception {
        // Rate 0 at a frozen instant: a used bucket never refills, so a key's grants can only exceed its burst if
        // an eviction or a race handed it a second bucket.
        int keys = 1_000;
        int burst = 3;
        KeyedRateLimiter<Integer> lim = KeyedRateLimiter.builder(0, burst).maxKeys(100).clock(() -> T0).build();
        AtomicIntegerArray granted = new AtomicIntegerArray(keys);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int i = 0; i < 200_000; i++) {
                        int key = random.nextInt(keys);
                        if (lim.allow(key)) {
                            granted.incrementAndGet(key);
                        }
                        if (i % 1000 == 0) {
                            lim.evictIdle();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        int total = 0;
        for (int key = 0; key < keys; key++) {
            assertThat(granted.get(key)).as("grants of key %d", key).isLessThanOrEqualTo(burst);
            total += granted.get(key);
        }
        assertThat(lim.size()).isLessThanOrEqualTo(100);
        assertThat(total).isPositive().isLessThanOrEqualTo(100 * burst);
    }
}
