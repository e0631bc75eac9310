package dev.sluice.bench.limits;

import com.netflix.concurrency.limits.limit.AIMDLimit;
import dev.sluice.limits.adaptive.AimdLimit;
import dev.sluice.limits.adaptive.Gradient2Limit;
import dev.sluice.limits.adaptive.VegasLimit;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of one latency sample fed to an adaptive limit, as a lease sender feeds it on its connection's event
 * loop (one thread, no contention): Sluice's {@code dev.sluice.limits.adaptive} limits against Netflix
 * concurrency-limits 0.5.4's, same algorithm, same settings. Each call takes the next of 4096 pre-drawn samples
 * (latency 5-15 ms, one in 16 at 40 ms; in flight around the limit) and returns the limit.
 *
 * <p>Run: {@code java -jar sluice-bench/target/benchmarks.jar AdaptiveLimitBenchmark -f 1 -wi 3 -w 1s -i 5
 * -r 1s -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdaptiveLimitBenchmark {

    private static final int SAMPLES = 4096;
    private static final long MS = 1_000_000L;

    private final long[] rtt = new long[SAMPLES];
    private final int[] inFlight = new int[SAMPLES];
    private int next;
    private long now;

    private AimdLimit sluiceAimd;
    private Gradient2Limit sluiceGradient2;
    private VegasLimit sluiceVegas;
    private AIMDLimit netflixAimd;
    private com.netflix.concurrency.limits.limit.Gradient2Limit netflixGradient2;
    private com.netflix.concurrency.limits.limit.VegasLimit netflixVegas;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < SAMPLES; i++) {
            rtt[i] = i % 16 == 0 ? 40 * MS : 5 * MS + random.nextLong(10 * MS);
            inFlight[i] = 10 + random.nextInt(200);
        }
        sluiceAimd = AimdLimit.builder().initialLimit(20).minLimit(1).maxLimit(200)
            .timeout(Duration.ofMillis(20)).build();
        netflixAimd = AIMDLimit.newBuilder().initialLimit(20).minLimit(1).maxLimit(200)
            .timeout(20, TimeUnit.MILLISECONDS).build();
        sluiceGradient2 = Gradient2Limit.builder().initialLimit(20).minLimit(1).maxLimit(200).build();
        netflixGradient2 = com.netflix.concurrency.limits.limit.Gradient2Limit.newBuilder().initialLimit(20)
            .minLimit(1).maxConcurrency(200).build();
        sluiceVegas = VegasLimit.builder().initialLimit(20).maxLimit(1000).build();
        netflixVegas = com.netflix.concurrency.limits.limit.VegasLimit.newBuilder().initialLimit(20)
            .maxConcurrency(1000).build();
    }

    private int advance() {
        now += MS;
        return next = (next + 1) & (SAMPLES - 1);
    }

    @Benchmark
    public int sluiceAimd() {
        int i = advance();
        sluiceAimd.onSample(now, rtt[i], inFlight[i], false);
        return sluiceAimd.limit();
    }

    @Benchmark
    public int netflixAimd() {
        int i = advance();
        netflixAimd.onSample(now, rtt[i], inFlight[i], false);
        return netflixAimd.getLimit();
    }

    @Benchmark
    public int sluiceGradient2() {
        int i = advance();
        sluiceGradient2.onSample(now, rtt[i], inFlight[i], false);
        return sluiceGradient2.limit();
    }

    @Benchmark
    public int netflixGradient2() {
        int i = advance();
        netflixGradient2.onSample(now, rtt[i], inFlight[i], false);
        return netflixGradient2.getLimit();
    }

    @Benchmark
    public int sluiceVegas() {
        int i = advance();
        sluiceVegas.onSample(now, rtt[i], inFlight[i], false);
        return sluiceVegas.limit();
    }

    @Benchmark
    public int netflixVegas() {
        int i = advance();
        netflixVegas.onSample(now, rtt[i], inFlight[i], false);
        return netflixVegas.getLimit();
    }
}
