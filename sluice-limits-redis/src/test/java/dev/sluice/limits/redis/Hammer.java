package dev.sluice.limits.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Asks a {@link RedisRateLimiter} for one token of a key as fast as it answers, from a few threads, and counts the
 * decisions Redis made within a window of its own clock. The test runs one hammer in its JVM and another in a
 * second JVM, started with this class's {@link #main}, against the same key.
 *
 * <p>The second JVM's protocol, one line each way: it prints {@code ready} once it is connected, reads
 * {@code <startMicros> <endMicros>} (an interval of Redis's {@code TIME}) from its input, hammers until Redis's
 * clock passes the end, prints {@code admitted=A decided=D degraded=G} and exits.
 */
public final class Hammer {

    /** The most time a hammer runs, whatever its window: a safety bound for a test. */
    private static final long MAX_NANOS = Duration.ofSeconds(60).toNanos();

    private Hammer() {
    }

    /** What a hammer counted: decisions in the window, how many of them admitted, and how many degraded. */
    record Counts(long admitted, long decided, long degraded) {
    }

    /**
     * Hammers {@code key} from {@code threads} threads until a decision is made at or after {@code endMicros},
     * counting those made in {@code [startMicros, endMicros)}.
     */
    static Counts hammer(RedisRateLimiter limiter, String key, long startMicros, long endMicros, int threads)
            throws InterruptedException {
        AtomicLong admitted = new AtomicLong();
        AtomicLong decided = new AtomicLong();
        AtomicLong degraded = new AtomicLong();
        long deadline = System.nanoTime() + MAX_NANOS;
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                // Bounded by Redis's clock passing the end, or by the safety deadline.
                while (System.nanoTime() - deadline < 0) {
                    Decision d = limiter.allowN(key, 1).block(Duration.ofSeconds(10));
                    if (d.degraded()) {
                        degraded.incrementAndGet();
                        continue;
                    }
                    long t = d.redisMicros();
                    if (t >= endMicros) {
                        return;
                    }
                    if (t >= startMicros) {
                        decided.incrementAndGet();
                        if (d.allowed()) {
                            admitted.incrementAndGet();
                        }
                    }
                }
            }, "hammer-" + i);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return new Counts(admitted.get(), decided.get(), degraded.get());
    }

    /** The second JVM: {@code <redis uri> <key> <limit> <burst> <threads>}; see the class doc. */
    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String key = args[1];
        double limit = Double.parseDouble(args[2]);
        int burst = Integer.parseInt(args[3]);
        int threads = Integer.parseInt(args[4]);
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(limit, burst).redis(uri)
                .timeout(Duration.ofSeconds(2)).build()) {
            Decision first = limiter.allowN(key, 0).block(Duration.ofSeconds(10));
            if (first == null || first.degraded()) {
                System.out.println("failed: " + first);
                return;
            }
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String[] window = in.readLine().trim().split(" ");
            Counts c = hammer(limiter, key, Long.parseLong(window[0]), Long.parseLong(window[1]), threads);
            System.out.println("admitted=" + c.admitted + " decided=" + c.decided + " degraded=" + c.degraded);
            System.out.flush();
        }
    }
}
