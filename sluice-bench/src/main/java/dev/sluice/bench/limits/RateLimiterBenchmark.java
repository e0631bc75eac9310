package dev.sluice.bench.limits;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of a non-blocking "may I?" on one shared rate limiter: Sluice's {@code allow()} against Guava's
 * {@code tryAcquire()}, bucket4j's {@code tryConsume(1)} (lock-free, its default) and Resilience4j's
 * {@code acquirePermission()} (timeout 0, so it never waits).
 *
 * <p>Every limiter allows {@value #RATE} per second with a burst of one second's worth, more than the callers can
 * ask for, so (after warm-up) nearly every call succeeds and the benchmark measures the path that grants a token:
 * a clock read, the arithmetic, and the update that other threads contend on. Each reads the same clock,
 * {@code System.nanoTime()}, through its own default.
 *
 * <p>Run (1 and 2 threads): {@code java -jar sluice-bench/target/benchmarks.jar RateLimiterBenchmark -f 1 -wi 3
 * -w 2s -i 5 -r 2s -t 1} (then {@code -t 2}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RateLimiterBenchmark {

    /** Tokens per second, for every limiter: 10^8, above what two threads can ask for. */
    static final int RATE = 100_000_000;

    private dev.sluice.limits.RateLimiter sluice;
    private com.google.common.util.concurrent.RateLimiter guava;
    private Bucket bucket4j;
    private io.github.resilience4j.ratelimiter.RateLimiter resilience4j;

    @Setup
    public void setUp() {
        sluice = dev.sluice.limits.RateLimiter.create(RATE, RATE);
        guava = com.google.common.util.concurrent.RateLimiter.create(RATE);
        bucket4j = Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(RATE).refillGreedy(RATE, Duration.ofSeconds(1)).build())
                .build();
        // Resilience4j counts permits per refresh period: 10^5 per millisecond is 10^8 per second.
        resilience4j = io.github.resilience4j.ratelimiter.RateLimiter.of("bench", RateLimiterConfig.custom()
                .limitRefreshPeriod(Duration.ofMillis(1))
                .limitForPeriod(RATE / 1000)
                .timeoutDuration(Duration.ZERO)
                .build());
    }

    @Benchmark
    public boolean sluice() {
        return sluice.allow();
    }

    @Benchmark
    public boolean guava() {
        return guava.tryAcquire();
    }

    @Benchmark
    public boolean bucket4j() {
        return bucket4j.tryConsume(1);
    }

    @Benchmark
    public boolean resilience4j() {
        return resilience4j.acquirePermission();
    }
}
