package dev.sluice.core.internal.lease;

import java.util.Arrays;

/**
 * A latency target for a service that was given none: {@value #TOLERANCE} times its usual p99, where usual is an
 * average of each second's p99 that rises fast and falls slowly. What a service does at the load it handles well
 * becomes its target, so that the load at which its latency breaks away, a queue building up or a quota running
 * out, is seen as late while a service that is merely slower under load is not.
 *
 * <p>The first second of answers gives a provisional target only, {@value #PROVISIONAL} times its p99: that traffic
 * is light (a limit starts low) and may be cold, so it says what is clearly too slow and lets the load grow, judged,
 * until the next second tells what the service usually does. Answers later than the target are not counted: they
 * are the breakdown the target is there to catch, and letting them in would move the target away from them. A
 * second with fewer than {@value #MIN_ANSWERS} answers is pooled with the next, so that a quiet service's estimate is
 * not its slowest answer. Never below {@code minNanos}: finer lateness is the scheduling of the caller and of timers,
 * not the service's.
 *
 * <p>Latencies are counted in a histogram with eight buckets per power of two (within 12.5%), allocated once.
 * Event-loop confined.
 */
public final class EstimatedTarget {

    /** How many times the usual p99 a response may take before it is late. */
    static final double TOLERANCE = 2;
    /** The share of the usual p99 a higher second's p99 replaces: it rises within a second or two. */
    private static final double GAIN_UP = 0.5;
    /**
     * The share a lower second's p99 replaces: it falls over about ten, so that the quiet seconds after an overload,
     * when the service is fastest, do not pull the target under what it does at its usual load.
     */
    private static final double GAIN_DOWN = 0.1;
    /** The provisional target, from the first second of answers, is this many times their p99. */
    static final int PROVISIONAL = 4;
    /** The fewest answers a second's p99 is taken from. */
    static final int MIN_ANSWERS = 20;
    private static final long SECOND = 1_000_000_000L;
    private static final int SUB_BITS = 3;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;

    private final long minNanos;
    /** Answers per bucket, in microseconds: values below 8 exactly, then eight buckets per power of two. */
    private final int[] counts = new int[(64 - SUB_BITS) * SUB_BUCKETS];
    private int answers;
    private long sinceNanos = Long.MIN_VALUE;
    private double usualP99Nanos;
    private long targetNanos;
    private boolean provisional;

    /** @param minNanos the least the target may be, {@code > 0} */
    public EstimatedTarget(long minNanos) {
        if (minNanos <= 0) {
            throw new IllegalArgumentException("minNanos must be > 0, got " + minNanos);
        }
        this.minNanos = minNanos;
    }

    /** The target in nanoseconds, or 0 until a second with enough answers has passed. */
    public long targetNanos() {
        return targetNanos;
    }

    /** A request was answered after {@code latencyNanos}, at {@code nowNanos}: counted unless later than the target. */
    public void answered(long nowNanos, long latencyNanos) {
        if (targetNanos != 0 && latencyNanos > targetNanos) {
            return;
        }
        if (sinceNanos == Long.MIN_VALUE) {
            sinceNanos = nowNanos;
        }
        counts[bucket(Math.max(0, latencyNanos) / 1_000)]++;
        answers++;
    }

    /**
     * Ends the current second if it has passed with enough answers: its p99 updates the usual one and the target.
     * Returns whether the target changed.
     */
    public boolean roll(long nowNanos) {
        if (sinceNanos == Long.MIN_VALUE || nowNanos - sinceNanos < SECOND || answers < MIN_ANSWERS) {
            return false;
        }
        long p99 = p99Nanos();
        Arrays.fill(counts, 0);
        answers = 0;
        sinceNanos = nowNanos;
        long next;
        if (targetNanos == 0) {
            // The first second's traffic is light (a limit starts low) and may be cold: it only says what is
            // clearly too slow, so that the load can grow, and be judged, until the next second tells the usual.
            provisional = true;
            next = PROVISIONAL * p99;
        } else {
            provisional = false;
            usualP99Nanos = usualP99Nanos == 0 ? p99
                : usualP99Nanos + (p99 > usualP99Nanos ? GAIN_UP : GAIN_DOWN) * (p99 - usualP99Nanos);
            next = (long) (TOLERANCE * usualP99Nanos);
        }
        next = Math.max(minNanos, next);
        boolean changed = next != targetNanos;
        targetNanos = next;
        return changed;
    }

    /**
     * The service answers later than the target even with nothing else to do, for good: the usual p99 becomes at
     * least {@code latencyNanos}. Returns the new target.
     */
    public long follow(long latencyNanos) {
        usualP99Nanos = Math.max(usualP99Nanos, latencyNanos);
        provisional = false;
        targetNanos = Math.max(minNanos, (long) (TOLERANCE * usualP99Nanos));
        return targetNanos;
    }

    /** The upper bound of the bucket holding the 99th percentile of the answers counted. */
    private long p99Nanos() {
        long above = answers - (long) Math.ceil(answers * 0.99);
        for (int i = counts.length - 1; i >= 0; i--) {
            above -= counts[i];
            if (above < 0) {
                return upperMicros(i) * 1_000;
            }
        }
        return 0;
    }

    static int bucket(long micros) {
        if (micros < SUB_BUCKETS) {
            return (int) micros;
        }
        int log2 = 63 - Long.numberOfLeadingZeros(micros);
        int sub = (int) (micros >>> (log2 - SUB_BITS)) & (SUB_BUCKETS - 1);
        return (log2 - SUB_BITS + 1) * SUB_BUCKETS + sub;
    }

    static long upperMicros(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int shift = bucket / SUB_BUCKETS - 1;
        int sub = bucket % SUB_BUCKETS;
        return ((long) (SUB_BUCKETS + sub + 1) << shift) - 1;
    }

    @Override
    public String toString() {
        return targetNanos == 0 ? "EstimatedTarget(not yet)" : "EstimatedTarget(" + targetNanos / 1_000_000.0
            + (provisional ? " ms, provisional)" : " ms, usual p99 " + (long) usualP99Nanos / 1_000_000.0 + " ms)");
    }
}
