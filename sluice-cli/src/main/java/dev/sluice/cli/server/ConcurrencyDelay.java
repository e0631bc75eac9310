package dev.sluice.cli.server;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The saturable service's latency model: a table such as {@code "10 => 2; 50 => 5; 120 => 20; => 5000"}. The n-th
 * request of the current one-second window falls in the first bracket whose bound is at least n and waits a delay
 * drawn uniformly between the previous bracket's delay (0 for the first) and its own, in milliseconds. The last
 * bracket has no bound.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConcurrencyDelay {

    /** The table the demo uses. */
    public static final String DEFAULT = "10 => 2; 50 => 5; 120 => 20; => 5000";

    private final long[] bounds;
    private final long[] delaysMillis;

    private ConcurrencyDelay(long[] bounds, long[] delaysMillis) {
        this.bounds = bounds;
        this.delaysMillis = delaysMillis;
    }

    /** Parses a table; the message of the exception quotes what is wrong. */
    public static ConcurrencyDelay parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty concurrency-delay table; expected e.g. '" + DEFAULT + "'");
        }
        String[] entries = text.trim().replaceAll(";\\s*$", "").split(";");
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < entries.length; i++) {
            String e = entries[i].trim();
            int arrow = e.indexOf("=>");
            if (arrow < 0) {
                throw new IllegalArgumentException("concurrency-delay entry '" + e + "' lacks '=>' (expected"
                    + " 'N => MILLIS', or '=> MILLIS' for the last)");
            }
            String bound = e.substring(0, arrow).trim();
            long delay = number(e.substring(arrow + 2).trim(), e, "delay");
            boolean last = i == entries.length - 1;
            if (bound.isEmpty() != last) {
                throw new IllegalArgumentException(bound.isEmpty()
                    ? "concurrency-delay entry '" + e + "' has no bound but is not the last"
                    : "the last concurrency-delay entry must have no bound ('=> MILLIS'), got '" + e + "'");
            }
            long b = last ? Long.MAX_VALUE : number(bound, e, "bound");
            if (!rows.isEmpty() && b <= rows.get(rows.size() - 1)[0]) {
                throw new IllegalArgumentException("concurrency-delay bounds must increase: '" + e + "' follows "
                    + rows.get(rows.size() - 1)[0]);
            }
            rows.add(new long[] {b, delay});
        }
        long[] bounds = new long[rows.size()];
        long[] delays = new long[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            bounds[i] = rows.get(i)[0];
            delays[i] = rows.get(i)[1];
        }
        return new ConcurrencyDelay(bounds, delays);
    }

    private static long number(String s, String entry, String what) {
        try {
            long v = Long.parseLong(s);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("concurrency-delay " + what + " must be a whole number >= 0, got '"
                + s + "' in '" + entry + "'");
        }
    }

    /** The delay in nanoseconds for the {@code n}-th request (1-based) of a window. */
    public long delayNanos(long n, RandomGenerator random) {
        int i = 0;
        while (bounds[i] < n) {
            i++;
        }
        long low = i == 0 ? 0 : delaysMillis[i - 1];
        long high = delaysMillis[i];
        long lowNanos = low * 1_000_000L;
        long highNanos = high * 1_000_000L;
        return highNanos <= lowNanos ? highNanos : lowNanos + random.nextLong(highNanos - lowNanos + 1);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < bounds.length; i++) {
            if (i > 0) {
                b.append("; ");
            }
            b.append(bounds[i] == Long.MAX_VALUE ? "" : bounds[i] + " ").append("=> ").append(delaysMillis[i]);
        }
        return b.toString();
    }
}
