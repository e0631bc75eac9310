package dev.sluice.bench.files;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The median of per-round ratios of two targets, with a 95% bootstrap confidence interval: how sure a run is of
 * which target is ahead. Where two writers both run at what the machine can do, their ratio stays within about 1%
 * of 1 from run to run, on either side; the interval says when a run cannot tell them apart.
 *
 * <p>The interval is the percentile bootstrap of the median: {@value #RESAMPLES} resamples of the rounds, drawn with
 * replacement from a fixed seed, so the same ratios always give the same interval.
 *
 * @param median the median ratio
 * @param low the lower end of the interval
 * @param high the upper end of the interval
 * @param rounds how many ratios (rounds) there were
 */
record PairedRatio(double median, double low, double high, int rounds) {

    static final int RESAMPLES = 2000;
    private static final long SEED = 0x5111CE;

    /**
     * The median and its interval for {@code ratios} (not changed).
     *
     * @throws IllegalArgumentException if there are none
     */
    static PairedRatio of(double[] ratios) {
        int n = ratios.length;
        if (n == 0) {
            throw new IllegalArgumentException("no ratios");
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[n];
        for (int b = 0; b < RESAMPLES; b++) {
            for (int i = 0; i < n; i++) {
                resample[i] = ratios[random.nextInt(n)];
            }
            medians[b] = median(resample);
        }
        Arrays.sort(medians);
        return new PairedRatio(median(ratios.clone()), medians[(int) Math.floor(0.025 * (RESAMPLES - 1))],
                medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))], n);
    }

    /** The median of {@code values}, which it sorts: the upper one of the middle two for an even count. */
    static double median(double[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.3f (95%% CI %.3f-%.3f, %d rounds)", median, low, high, rounds);
    }
}
