package dev.sluice.cli.report.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A linear axis from 0 to a "nice" maximum (1, 2, 2.5 or 5 times a power of ten, at or above the data's largest
 * value), with about five labelled ticks at round numbers. Immutable.
 */
public final class LinearScale implements Scale {

    private static final double[] STEPS = {1, 2, 2.5, 5, 10};

    private final double max;
    private final double step;
    private final double top;
    private final double bottom;

    /**
     * @param dataMax the largest value to show; 0 or less gives an axis from 0 to 1
     * @param top the pixel of the axis' maximum
     * @param bottom the pixel of 0 (larger than {@code top}: SVG's y grows downwards)
     */
    public LinearScale(double dataMax, double top, double bottom) {
        if (!(bottom > top)) {
            throw new IllegalArgumentException("bottom <= top: bottom=" + bottom + ", top=" + top);
        }
        double target = dataMax > 0 ? dataMax : 1;
        this.step = niceStep(target / 5);
        this.max = Math.ceil(target / step - 1e-9) * step;
        this.top = top;
        this.bottom = bottom;
    }

    /** The axis' maximum: the smallest multiple of the tick step at or above the data's largest value. */
    public double max() {
        return max;
    }

    @Override
    public double pixel(double value) {
        double v = Math.max(0, Math.min(max, value));
        return bottom - (bottom - top) * v / max;
    }

    @Override
    public List<Tick> ticks() {
        List<Tick> ticks = new ArrayList<>();
        long n = Math.round(max / step);
        for (long i = 0; i <= n; i++) {
            double v = i * step;
            ticks.add(new Tick(v, label(v)));
        }
        return ticks;
    }

    /** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code raw}. */
    static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double s : STEPS) {
            if (s * magnitude >= raw - 1e-12 * magnitude) {
                return s * magnitude;
            }
        }
        return 10 * magnitude;
    }

    /** 0.6, not 0.6000000000000001: six significant digits are more than an axis needs. */
    private static String label(double v) {
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
