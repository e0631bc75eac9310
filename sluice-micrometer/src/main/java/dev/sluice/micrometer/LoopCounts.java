package dev.sluice.micrometer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The request counts of every connection served by one thread (an event loop), and that thread's latency
 * sampling. Only its owner writes; meters read from any thread. Counting in one thread's own array, with no
 * atomic instruction, is what keeps metrics within a few nanoseconds per request.
 */
final class LoopCounts {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Aim: about one timed request per millisecond per thread, however busy it is. */
    private static final long SAMPLE_INTERVAL_NANOS = 1_000_000L;
    private static final long MAX_STRIDE = 1L << 20;

    final Thread owner;
    private final long[] counts;
    private long stride = 1;
    private long countdown = 1;
    private long lastSampleNanos = System.nanoTime();

    LoopCounts(Thread owner, int slots) {
        this.owner = owner;
        this.counts = new long[slots];
    }

    /** Owner only. */
    void increment(int slot) {
        LONGS.setOpaque(counts, slot, counts[slot] + 1);
    }

    /** Any thread: the count of {@code slot} as last written. */
    long get(int slot) {
        return (long) LONGS.getOpaque(counts, slot);
    }

    /**
     * Owner only: whether to time the next request. One in {@code stride} is; the stride follows the thread's
     * request rate so that about one request per {@link #SAMPLE_INTERVAL_NANOS} is timed — every request when the
     * thread is quieter than that. It may double per sample when traffic grows, and drops at once when it falls.
     */
    boolean timeNext() {
        if (--countdown > 0) {
            return false;
        }
        sampled(System.nanoTime());
        return true;
    }

    /** A request is timed at {@code nowNanos}: sets the stride to the next one from the rate since the last. */
    void sampled(long nowNanos) {
        long elapsed = nowNanos - lastSampleNanos;
        lastSampleNanos = nowNanos;
        long wanted = elapsed <= 0 ? stride * 2 : stride * SAMPLE_INTERVAL_NANOS / elapsed;
        stride = Math.max(1, Math.min(Math.min(wanted, stride * 2), MAX_STRIDE));
        countdown = stride;
    }

    /** Requests from one timed request to the next. */
    long stride() {
        return stride;
    }
}
