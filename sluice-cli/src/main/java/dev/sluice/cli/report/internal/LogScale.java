package dev.sluice.cli.report.internal;

import dev.sluice.cli.load.Latency;
import java.util.ArrayList;
import java.util.List;

/**
 * A base-10 logarithmic axis of latencies in microseconds, spanning whole decades: from the decade at or below the
 * smallest value to the decade at or above the largest, at least 10 µs to 100 ms so that even a run of sub-ms
 * answers shows where it stands. Labelled ticks at each power of ten ({@code 100 µs}, {@code 1 ms}, ...,
 * {@code 10 s}); unlabelled minor ticks at 2..9 times each. Immutable.
 */
public final class LogScale implements Scale {

    private final int lowDecade;
    private final int highDecade;
    private final double top;
    private final double bottom;

    /**
     * @param minMicros the smallest value to show (values below 1 µs count as 1 µs)
     * @param maxMicros the largest value to show
     * @param top the pixel of the axis' maximum
     * @param bottom the pixel of its minimum (larger than {@code top})
     */
    public LogScale(double minMicros, double maxMicros, double top, double bottom) {
        if (!(bottom > top)) {
            throw new IllegalArgumentException("bottom <= top: bottom=" + bottom + ", top=" + top);
        }
        int low = (int) Math.floor(Math.log10(Math.max(1, minMicros)) + 1e-9);
        int high = (int) Math.ceil(Math.log10(Math.max(1, maxMicros)) - 1e-9);
        this.lowDecade = Math.min(low, 1);
        this.highDecade = Math.max(high, 5);
        this.top = top;
        this.bottom = bottom;
    }

    /** The smallest value on the axis, µs. */
    public double min() {
        return Math.pow(10, lowDecade);
    }

    /** The largest value on the axis, µs. */
    public double max() {
        return Math.pow(10, highDecade);
    }

    @Override
    public double pixel(double micros) {
        double d = Math.log10(Math.max(micros, min()));
        d = Math.min(d, highDecade);
        return bottom - (bottom - top) * (d - lowDecade) / (highDecade - lowDecade);
    }

    @Override
    public List<Tick> ticks() {
        List<Tick> ticks = new ArrayList<>();
        for (int decade = lowDecade; decade <= highDecade; decade++) {
            double base = Math.pow(10, decade);
            ticks.add(new Tick(base, Latency.format(Math.round(base))));
            if (decade < highDecade) {
                for (int m = 2; m <= 9; m++) {
                    ticks.add(new Tick(m * base, ""));
                }
            }
        }
        return ticks;
    }
}
