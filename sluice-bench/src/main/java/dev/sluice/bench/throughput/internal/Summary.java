package dev.sluice.bench.throughput.internal;

import java.util.Arrays;
import java.util.List;

/**
 * Median, minimum and maximum of a cell's one-second figures. The median of an even count is the mean of the two
 * middle figures.
 */
public record Summary(double median, long min, long max, int count) {

    /** @throws IllegalArgumentException if {@code figures} is empty */
    public static Summary of(List<Long> figures) {
        if (figures.isEmpty()) {
            throw new IllegalArgumentException("no figures to summarise");
        }
        long[] sorted = figures.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + (double) sorted[n / 2]) / 2;
        return new Summary(median, sorted[0], sorted[n - 1], n);
    }
}
