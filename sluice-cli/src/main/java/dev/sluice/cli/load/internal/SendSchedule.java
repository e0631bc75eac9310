package dev.sluice.cli.load.internal;

import java.time.Duration;

/**
 * The intended send times of an open-loop, constant-rate load: request {@code i} (from 0) is due at
 * {@code startNanos + floor(i * 1e9 / rate)}. Times are computed from {@code i} alone, never by adding an interval
 * to the previous time, so the schedule does not drift however long it runs, and a sender that falls behind finds
 * every request it owes in {@link #dueCount}.
 *
 * <p>Immutable and thread-safe. Times are in nanoseconds on the caller's clock; the arithmetic is exact and does not
 * overflow for any rate up to {@link #MAX_RATE} and any run shorter than 290 years.
 */
public final class SendSchedule {

    /** The largest rate accepted, requests per second. */
    public static final int MAX_RATE = 10_000_000;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long startNanos;
    private final int rate;
    private final long total;

    private SendSchedule(long startNanos, int rate, long total) {
        this.startNanos = startNanos;
        this.rate = rate;
        this.total = total;
    }

    /** The requests of {@code duration} at {@code rate} per second: all whose intended time is before the end. */
    public static SendSchedule of(long startNanos, int rate, Duration duration) {
        if (rate < 1 || rate > MAX_RATE) {
            throw new IllegalArgumentException("rate must be between 1 and " + MAX_RATE + ", got " + rate);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be > 0, got " + duration);
        }
        // Requests with an offset <= duration - 1 ns, i.e. strictly before the end.
        return new SendSchedule(startNanos, rate, countThrough(rate, duration.toNanos() - 1));
    }

    /** When the first request is due, ns. */
    public long startNanos() {
        return startNanos;
    }

    /** How many requests the schedule holds. */
    public long total() {
        return total;
    }

    /** When request {@code i} is due, ns on the caller's clock. */
    public long intendedNanos(long i) {
        if (i < 0) {
            throw new IllegalArgumentException("i < 0: " + i);
        }
        return startNanos + (i / rate) * NANOS_PER_SECOND + (i % rate) * NANOS_PER_SECOND / rate;
    }

    /**
     * How many requests are due at {@code nowNanos}: the number of {@code i} with {@code intendedNanos(i) <=
     * nowNanos}, at most {@link #total()}. Requests {@code [sentSoFar, dueCount(now))} are the ones to send now.
     */
    public long dueCount(long nowNanos) {
        long elapsed = nowNanos - startNanos;
        if (elapsed < 0) {
            return 0;
        }
        return Math.min(total, countThrough(rate, elapsed));
    }

    /** The number of i >= 0 with floor(i * 1e9 / rate) <= elapsed, for elapsed >= 0 (0 for elapsed < 0). */
    private static long countThrough(int rate, long elapsed) {
        if (elapsed < 0) {
            return 0;
        }
        // floor(i * G / r) <= e  <=>  i * G < (e + 1) * r  <=>  i <= ((e + 1) * r - 1) / G. Splitting e into whole
        // seconds and a remainder keeps (rem + 1) * r below 1e9 * 1e7, well inside a long.
        long seconds = elapsed / NANOS_PER_SECOND;
        long rem = elapsed % NANOS_PER_SECOND;
        return seconds * rate + ((rem + 1) * rate - 1) / NANOS_PER_SECOND + 1;
    }
}
