package dev.sluice.bench.throughput.internal;

import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Response times of a paced client, in nanoseconds from the moment a request was <em>due</em> (not sent), so a
 * client that falls behind its schedule reports the wait too (no coordinated omission). Only requests due since
 * {@link #startMeasuring} count: answers to warm-up requests arriving later are left out. Backed by an
 * HdrHistogram {@link Recorder}: recording is wait-free, allocation-free and safe from any thread; values above
 * {@link #HIGHEST_NANOS} are clamped to it.
 */
public final class Latency {

    /** The largest value tracked: one minute. */
    public static final long HIGHEST_NANOS = 60_000_000_000L;

    private final Recorder recorder = new Recorder(HIGHEST_NANOS, 3);
    /** Where answers to requests due before measuring started go, to be ignored. */
    private final Recorder ignored = new Recorder(HIGHEST_NANOS, 3);
    /**
     * Index 0: {@link #recorder}; index 1: {@link #ignored}. Picked by the sign of {@code dueNanos - measuringSince}
     * rather than by a branch: a branch never taken during warm-up is compiled as a trap, and taking it at the
     * start of measuring deoptimised the whole inlined answer path, which spoiled the first measured seconds.
     */
    private final Recorder[] recorders = {recorder, ignored};
    /**
     * Until measuring starts, a time long before any request is due (about 146 years, within the range where
     * nanoTime differences keep their sign), so every answer is recorded (and reset at the start).
     */
    private volatile long measuringSince = System.nanoTime() - (1L << 62);

    /**
     * Records the answer, at {@code nowNanos}, to a request due at {@code dueNanos}, unless it was due before
     * measuring started. A negative difference (a clock quirk) counts as 0.
     */
    public void record(long dueNanos, long nowNanos) {
        // nanoTime values compare by difference only: they may be negative and wrap. The sign bit picks the recorder.
        int late = (int) ((dueNanos - measuringSince) >>> 63);
        recorders[late].recordValue(Math.max(0, Math.min(nowNanos - dueNanos, HIGHEST_NANOS)));
    }

    /** Forgets what was recorded so far and counts only requests due from {@code nowNanos} on. */
    public void startMeasuring(long nowNanos) {
        measuringSince = nowNanos;
        recorder.reset();
    }

    /** What was recorded since the last reset or snapshot. */
    public Histogram snapshot() {
        return recorder.getIntervalHistogram();
    }

    /**
     * The line a client prints at the end: {@code latency count=N p50=X p99=X p999=X max=X}, values in
     * microseconds with two decimals.
     */
    public static String line(Histogram h) {
        return String.format(Locale.ROOT, "latency count=%d p50=%.2f p99=%.2f p999=%.2f max=%.2f",
            h.getTotalCount(), micros(h.getValueAtPercentile(50)), micros(h.getValueAtPercentile(99)),
            micros(h.getValueAtPercentile(99.9)), micros(h.getMaxValue()));
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
