package dev.sluice.cli.files.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures a transfer for display: the bytes moved so far, the expected total, a smoothed rate and the time left.
 *
 * <p>The rate is an exponentially weighted moving average of the rate between consecutive {@link #sample}s, with a
 * time constant of {@value #TAU_NANOS} ns: a sample {@code dt} after the previous one moves the average by the
 * fraction {@code 1 - exp(-dt / tau)} towards the rate since then. It follows a change of speed within a few
 * seconds without jumping with each chunk, and it does not depend on how often it is sampled. The first sample
 * takes the average since the start. Time is a parameter ({@code nowNanos}, any monotonic origin).
 *
 * <p>Thread-safety: {@link #add} and {@link #total(long)} from any thread; {@link #sample} and the readings
 * derived from it from one thread at a time (the display's).
 */
public final class TransferMeter {

    /** The rate's time constant: 3 s. */
    public static final long TAU_NANOS = 3_000_000_000L;

    private final long startNanos;
    private final AtomicLong bytes = new AtomicLong();
    private volatile long total = -1;
    private long lastNanos;
    private long lastBytes;
    /** Bytes per second; negative until the first sample that saw time pass. */
    private double rate = -1;

    /** A meter whose transfer starts at {@code startNanos}. */
    public TransferMeter(long startNanos) {
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
    }

    /** Counts {@code n} more bytes moved. */
    public void add(long n) {
        bytes.addAndGet(n);
    }

    /** The bytes moved so far. */
    public long bytes() {
        return bytes.get();
    }

    /** Sets the expected total in bytes; {@code -1} for unknown (the initial value). */
    public void total(long total) {
        this.total = total;
    }

    /** The expected total in bytes, or {@code -1} if unknown. */
    public long total() {
        return total;
    }

    /** Nanoseconds since the start. */
    public long elapsedNanos(long nowNanos) {
        return nowNanos - startNanos;
    }

    /**
     * Folds the bytes moved since the previous sample into the rate and returns it. A sample at or before the
     * previous one changes nothing.
     */
    public double sample(long nowNanos) {
        long dt = nowNanos - lastNanos;
        if (dt <= 0) {
            return rate;
        }
        long b = bytes.get();
        double instant = (b - lastBytes) * 1e9 / dt;
        if (rate < 0) {
            rate = instant;
        } else {
            rate += (1 - Math.exp(-(double) dt / TAU_NANOS)) * (instant - rate);
        }
        lastNanos = nowNanos;
        lastBytes = b;
        return rate;
    }

    /** The smoothed rate in bytes per second as of the last sample; negative before the first. */
    public double rate() {
        return rate;
    }

    /**
     * The time left at the smoothed rate, in nanoseconds; {@code -1} when it cannot be told (unknown total, no
     * rate yet, or a rate of zero). Zero once the total is reached.
     */
    public long etaNanos() {
        long t = total;
        if (t < 0) {
            return -1;
        }
        long remaining = Math.max(0, t - bytes.get());
        if (remaining == 0) {
            return 0;
        }
        if (rate <= 0) {
            return -1;
        }
        double nanos = remaining / rate * 1e9;
        return nanos >= Long.MAX_VALUE ? -1 : (long) nanos;
    }
}
