package dev.sluice.limits.redis;

import dev.sluice.testkit.RedisServerProcess;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A short measurement, not a test: decisions per second and decision latency of one {@link RedisRateLimiter}
 * against a local {@code redis-server} it starts on a free port. Run it with
 * <pre>
 * mvn -B -q -pl sluice-limits-redis test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd sluice-limits-redis
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) dev.sluice.limits.redis.RedisLimiterProbe [seconds]
 * </pre>
 * ({@code seconds} per run, 3 by default).
 * Redis, the client and the JVM share the machine, so the figures describe this machine, not Redis.
 */
public final class RedisLimiterProbe {

    private RedisLimiterProbe() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        RedisServerProcess.assumeInstalledOrExit();
        try (RedisServerProcess redis = RedisServerProcess.start();
                RedisRateLimiter limiter = RedisRateLimiter.builder(1e6, 1000).redis(redis.uri())
                        .timeout(Duration.ofSeconds(1)).build()) {
            System.out.printf("redis %s on port %d; limiter %s%n", redis.command("INFO", "server").toString()
                    .lines().filter(l -> l.startsWith("redis_version")).findFirst().orElse("?"), redis.port(),
                    limiter);
            // Warm up the JIT, the connection and the script cache.
            run(limiter, 1, 2, false);
            run(limiter, 64, 2, false);
            System.out.println("in flight | keys      | decisions/s | p50 us | p99 us | p99.9 us | degraded");
            for (int inFlight : new int[] {1, 16, 64, 256}) {
                print(inFlight, "1 hot", run(limiter, inFlight, seconds, false));
            }
            print(64, "100k rand", run(limiter, 64, seconds, true));
        }
    }

    private record Result(double perSecond, long[] sortedNanos, long degraded) {
    }

    private static Result run(RedisRateLimiter limiter, int inFlight, long seconds, boolean manyKeys) {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        int capacity = 4_000_000;
        long[] latencies = new long[capacity];
        AtomicLong count = new AtomicLong();
        AtomicLong degraded = new AtomicLong();
        long start = System.nanoTime();
        Flux.range(0, Integer.MAX_VALUE)
                .takeWhile(i -> System.nanoTime() - end < 0)
                .flatMap(i -> {
                    String key = manyKeys ? "k" + (i * 2_654_435_761L & 0xffff_ffffL) % 100_000 : "hot";
                    return Mono.defer(() -> {
                        long t0 = System.nanoTime();
                        return limiter.allowN(key, 1).doOnNext(d -> {
                            long n = count.getAndIncrement();
                            if (n < capacity) {
                                latencies[(int) n] = System.nanoTime() - t0;
                            }
                            if (d.degraded()) {
                                degraded.incrementAndGet();
                            }
                        });
                    });
                }, inFlight)
                .blockLast(Duration.ofSeconds(seconds + 30));
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] sorted = Arrays.copyOf(latencies, (int) Math.min(count.get(), capacity));
        Arrays.sort(sorted);
        return new Result(count.get() / elapsed, sorted, degraded.get());
    }

    private static void print(int inFlight, String keys, Result r) {
        System.out.printf("%9d | %-9s | %11.0f | %6.0f | %6.0f | %8.0f | %d%n", inFlight, keys, r.perSecond,
                percentile(r.sortedNanos, 0.50) / 1e3, percentile(r.sortedNanos, 0.99) / 1e3,
                percentile(r.sortedNanos, 0.999) / 1e3, r.degraded);
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }
}
