package dev.sluice.bench.throughput.internal;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Response times of a paced client, in nanoseconds from the moment a request was <em>due</em> (not sent), so a
 * client that falls behind its schedule reports the wait too (no coordinated omission). Only requests due since
 * {@link #startMeasuring} count: answers to warm-up requests arriving later are left out. Values above
 * {@link #HIGHEST_NANOS} are clamped to it.
 *
 * <p>Two ways in, both wait-free and allocation-free: {@link #record} from any thread, into an HdrHistogram
 * {@link Recorder}; and {@link #recordAll} for a batch of answers stamped together, from one thread at a time (a
 * client's event loop), into plain histograms swapped under one phaser. The batch enters the phaser once instead of
 * once per answer and counts without atomics: about 5 ns per answer against the recorder's 9 (its two phaser
 * entries and its concurrent histogram's atomic counts), measured over 5 M answers on one core. A paced 4-byte
 * request-response costs Sluice's client about 146 ns, and none of this is paid by the closed loop whose rate the
 * paced runs are a percentage of.
 */
public final class Latency {

    /** The largest value tracked: one minute. */
    public static final long HIGHEST_NANOS = 60_000_000_000L;

    private static final int DIGITS = 3;

    private final Recorder recorder = new Recorder(HIGHEST_NANOS, DIGITS);
    /** Where answers to requests due before measuring started go, to be ignored. */
    private final Recorder ignored = new Recorder(HIGHEST_NANOS, DIGITS);
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

    /** Guards {@link #batchTargets} against a swap while a batch is being recorded. */
    private final WriterReaderPhaser batchPhaser = new WriterReaderPhaser();
    /**
     * Where batches go: index 0 the current interval's histogram, index 1 answers to requests due before measuring
     * started (never read); picked by the sign, as {@link #recorders}. Replaced whole by each swap.
     */
    private volatile Histogram[] batchTargets = {newHistogram(), newHistogram()};
    /** The histogram the next swap puts in place; only touched under the phaser's reader lock. */
    private Histogram batchSpare = newHistogram();
    /** The recorder's last interval histogram, handed back to it by the next snapshot; reporting thread only. */
    private Histogram recycledInterval;

    /**
     * Records the answer, at {@code nowNanos}, to a request due at {@code dueNanos}, unless it was due before
     * measuring started. A negative difference (a clock quirk) counts as 0.
     */
    public void record(long dueNanos, long nowNanos) {
        // nanoTime values compare by difference only: they may be negative and wrap. The sign bit picks the recorder.
        int late = (int) ((dueNanos - measuringSince) >>> 63);
        recorders[late].recordValue(Math.max(0, Math.min(nowNanos - dueNanos, HIGHEST_NANOS)));
    }

    /**
     * Records the answers, all at {@code nowNanos}, to {@code count} requests whose due times are in the ring
     * {@code dues} from position {@code from} on (index {@code (from + i) & (dues.length - 1)}; the length is a power
     * of two); as {@link #record} each, in one critical section. One thread at a time.
     */
    public void recordAll(long[] dues, long from, int count, long nowNanos) {
        int mask = dues.length - 1;
        long since = measuringSince;
        long phase = batchPhaser.writerCriticalSectionEnter();
        try {
            Histogram[] targets = batchTargets;
            for (int i = 0; i < count; i++) {
                long due = dues[(int) (from + i) & mask];
                targets[(int) ((due - since) >>> 63)].recordValue(Math.max(0, Math.min(nowNanos - due,
                    HIGHEST_NANOS)));
            }
        } finally {
            batchPhaser.writerCriticalSectionExit(phase);
        }
    }

    /** Forgets what was recorded so far and counts only requests due from {@code nowNanos} on. */
    public void startMeasuring(long nowNanos) {
        measuringSince = nowNanos;
        recorder.reset();
        swapBatchTarget();
    }

    /**
     * What was recorded since the last reset or snapshot, in a histogram that stays valid until the next snapshot
     * (it is then reused).
     *
     * <p>Runs once a second on the reporting thread, which shares a core with the client's event loop: every
     * microsecond here is a microsecond the loop stands still, at the same moment each second. So nothing is
     * allocated, and every merge adds one plain {@link Histogram} into another: adding the recorder's concurrent
     * histogram too (when it is empty, which it is for clients that answer on their loop) made the merge's call
     * sites see two classes, and C2 recompiled {@code AbstractHistogram.add} every second or two of a measured
     * run, on that same core.
     */
    public Histogram snapshot() {
        Histogram interval = recorder.getIntervalHistogram(recycledInterval);
        recycledInterval = interval;
        Histogram batch = swapBatchTarget();
        if (interval.getTotalCount() > 0) {
            batch.add(interval);
        }
        return batch;
    }

    /**
     * Puts an empty histogram in place for batches and returns the one taken out, once no batch is writing to it.
     * It stays valid until the next swap.
     */
    private Histogram swapBatchTarget() {
        batchPhaser.readerLock();
        try {
            Histogram[] current = batchTargets;
            batchSpare.reset();
            batchTargets = new Histogram[] {batchSpare, current[1]};
            batchPhaser.flipPhase();
            batchSpare = current[0];
            return current[0];
        } finally {
            batchPhaser.readerUnlock();
        }
    }

    /** An empty histogram of the range and precision recorded here, e.g. to sum snapshots into. */
    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_NANOS, DIGITS);
    }

    /**
     * The line a client prints at the end: {@code latency count=N p50=X p99=X p999=X max=X}, values in
     * microseconds with two decimals.
     */
    public static String line(Histogram h) {
        StringBuilder b = new StringBuilder("latency count=").append(h.getTotalCount());
        appendMicros(b.append(" p50="), h.getValueAtPercentile(50));
        appendMicros(b.append(" p99="), h.getValueAtPercentile(99));
        appendMicros(b.append(" p999="), h.getValueAtPercentile(99.9));
        return appendMicros(b.append(" max="), h.getMaxValue()).toString();
    }

    /**
     * Appends {@code p99=X}, in microseconds with two decimals, as in {@link #line}. Without {@code String.format},
     * whose parsing (a regular expression per call) and locale lookups the once-a-second report would otherwise
     * compile and run on the client's core inside measured seconds.
     */
    public static StringBuilder appendP99(StringBuilder b, Histogram h) {
        return appendMicros(b.append("p99="), h.getValueAtPercentile(99));
    }

    /** {@code nanos} as microseconds rounded to two decimals, e.g. 1234567 as {@code 1234.57}. */
    static StringBuilder appendMicros(StringBuilder b, long nanos) {
        long hundredths = (nanos + 5) / 10;
        long fraction = hundredths % 100;
        return b.append(hundredths / 100).append('.').append(fraction < 10 ? "0" : "").append(fraction);
    }
}
