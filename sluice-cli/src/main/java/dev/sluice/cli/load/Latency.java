package dev.sluice.cli.load;

import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;

/**
 * Percentiles of a set of latencies, in <b>microseconds</b>, measured from each request's intended send time (so a
 * slow answer also counts the time the request would have waited behind it: no coordinated omission).
 *
 * <p>Immutable. Percentiles are HdrHistogram's "highest equivalent value" at 3 significant digits. With
 * {@code count == 0} every percentile is 0: see {@link #NONE}.
 *
 * @param count how many latencies were recorded
 * @param p50Micros median
 * @param p90Micros 90th percentile
 * @param p95Micros 95th percentile
 * @param p99Micros 99th percentile
 * @param maxMicros the largest
 */
public record Latency(long count, long p50Micros, long p90Micros, long p95Micros, long p99Micros, long maxMicros) {

    /** No latency recorded. */
    public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0);

    public Latency {
        if (count < 0 || p50Micros < 0 || p90Micros < p50Micros || p95Micros < p90Micros || p99Micros < p95Micros
            || maxMicros < p99Micros) {
            throw new IllegalArgumentException("expected count >= 0 and 0 <= p50 <= p90 <= p95 <= p99 <= max, got"
                + " count=" + count + " p50=" + p50Micros + " p90=" + p90Micros + " p95=" + p95Micros + " p99="
                + p99Micros + " max=" + maxMicros);
        }
    }

    /** The percentiles of {@code micros}, a histogram of latencies in microseconds; {@link #NONE} if empty. */
    public static Latency of(AbstractHistogram micros) {
        if (micros.getTotalCount() == 0) {
            return NONE;
        }
        return new Latency(micros.getTotalCount(), micros.getValueAtPercentile(50), micros.getValueAtPercentile(90),
            micros.getValueAtPercentile(95), micros.getValueAtPercentile(99), micros.getMaxValue());
    }

    /** Whether nothing was recorded. */
    public boolean isEmpty() {
        return count == 0;
    }

    /**
     * A latency for people: {@code 840 µs}, {@code 4.2 ms}, {@code 19 ms}, {@code 4.88 s} — three significant
     * digits at most, in the unit that keeps the number short.
     */
    public static String format(long micros) {
        if (micros < 1_000) {
            return micros + " µs";
        }
        if (micros < 1_000_000) {
            return significant(micros / 1_000.0) + " ms";
        }
        return significant(micros / 1_000_000.0) + " s";
    }

    private static String significant(double v) {
        String s = v < 10 ? String.format(Locale.ROOT, "%.2f", v)
            : v < 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.0f", v);
        // "4.00" reads better as "4".
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
