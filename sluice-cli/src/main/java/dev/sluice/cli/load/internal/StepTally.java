package dev.sluice.cli.load.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.StepStats;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The outcomes of the requests of one step of a ramp, counted as they come: the sender counts each request sent,
 * the threads that deliver answers (and the closer, for timeouts) count each outcome — latencies in microseconds —
 * and then {@link #settled() settled}.
 *
 * <p>Thread-safe, without locks except when a map or histogram grows. {@link #stats} is meant for when every
 * request sent is settled: each outcome is recorded before its request counts as settled, so a reader that sees
 * {@code settled() == sent()} sees every outcome.
 */
public final class StepTally {

    /** Distinct rejection messages and failure causes kept apart; further ones are counted under {@link #OTHER}. */
    static final int MAX_KEYS = 16;
    /** The key for whatever is beyond {@link #MAX_KEYS}. */
    public static final String OTHER = "(other)";

    private static final int SIGNIFICANT_DIGITS = 3;

    private final LongAdder sent = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicLong settled = new AtomicLong();
    private final ConcurrentHistogram successMicros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);
    private final ConcurrentHistogram failureMicros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);
    private final ConcurrentHistogram rejectionMicros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);
    private final ConcurrentHashMap<String, LongAdder> rejections = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> causes = new ConcurrentHashMap<>();

    /** Counts one request sent. */
    public void sent() {
        sent.increment();
    }

    /** Counts a success that took {@code micros}; returns the number of requests settled so far. */
    long success(long micros) {
        successes.increment();
        successMicros.recordValue(micros);
        return settled.incrementAndGet();
    }

    /** Counts an ERROR[REJECTED] with {@code message} that took {@code micros}; returns the settled count. */
    long rejection(String message, long micros) {
        rejected.increment();
        rejectionMicros.recordValue(micros);
        failureMicros.recordValue(micros);
        count(rejections, message);
        return settled.incrementAndGet();
    }

    /** Counts a request given up at its timeout, {@code micros} after it was due; returns the settled count. */
    long timeout(long micros) {
        timedOut.increment();
        failureMicros.recordValue(micros);
        return settled.incrementAndGet();
    }

    /** Counts a failure for {@code cause} that took {@code micros}; returns the settled count. */
    long failure(String cause, long micros) {
        failed.increment();
        failureMicros.recordValue(micros);
        count(causes, cause);
        return settled.incrementAndGet();
    }

    /** Requests sent so far. */
    public long sentCount() {
        return sent.sum();
    }

    /** Requests whose outcome is counted. */
    public long settled() {
        return settled.get();
    }

    /** The step's figures; call it once {@link #settled()} equals {@link #sentCount()} and sending is over. */
    public StepStats stats(int step, int offeredRate, Duration duration) {
        return new StepStats(step, offeredRate, duration, sent.sum(), successes.sum(), rejected.sum(),
            timedOut.sum(), failed.sum(), Latency.of(successMicros), Latency.of(failureMicros),
            Latency.of(rejectionMicros), sums(rejections), sums(causes));
    }

    /** Adds this step's latencies to the run's totals. */
    public void addTo(AbstractHistogram success, AbstractHistogram failure, AbstractHistogram rejection) {
        success.add(successMicros);
        failure.add(failureMicros);
        rejection.add(rejectionMicros);
    }

    private static void count(ConcurrentHashMap<String, LongAdder> counts, String key) {
        LongAdder n = counts.get(key);
        if (n == null) {
            // Racing threads may each add one past the bound: it bounds memory, not an exact count.
            n = counts.computeIfAbsent(counts.size() < MAX_KEYS ? key : OTHER, k -> new LongAdder());
        }
        n.increment();
    }

    private static Map<String, Long> sums(ConcurrentHashMap<String, LongAdder> counts) {
        Map<String, Long> out = new HashMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
