package dev.sluice.cli.report.internal;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The frame of a chart over bands along x — one per second of a run, or one per step of offered load — with a
 * {@link Scale} along y, grid lines, labelled axes and a legend. A chart draws its series between
 * {@link #Plot construction} and {@link #end()}. Not thread-safe.
 */
public final class Plot {

    /** Image size and the plot area's margins, px. */
    public static final int WIDTH = 600;
    public static final int HEIGHT = 290;
    static final int LEFT = 68;
    static final int RIGHT = 14;
    static final int TOP = 36;
    static final int BOTTOM = 48;

    private static final int[] X_STEPS = {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600};
    private static final int MAX_X_LABELS = 12;

    private final Svg svg;
    private final int bands;
    private final Scale y;

    /**
     * Draws the frame of a per-second chart: bands labelled 1, 2, ... along an x axis titled "second of the run".
     *
     * @param label what the chart shows (its title and accessible name)
     * @param seconds the number of seconds along x (at least 1 band is drawn)
     * @param y the vertical scale, built for {@link #top()} and {@link #bottom()}
     * @param yTitle the y axis' title
     */
    public Plot(String label, int seconds, Scale y, String yTitle) {
        this(label, seconds, i -> Integer.toString(i + 1), "second of the run", y, yTitle);
    }

    /**
     * Draws the frame.
     *
     * @param label what the chart shows (its title and accessible name)
     * @param bands the number of bands along x (at least 1 is drawn)
     * @param bandLabel the label of band {@code i} (from 0); with many bands only some are labelled
     * @param xTitle the x axis' title
     * @param y the vertical scale, built for {@link #top()} and {@link #bottom()}
     * @param yTitle the y axis' title
     */
    public Plot(String label, int bands, IntFunction<String> bandLabel, String xTitle, Scale y, String yTitle) {
        this.svg = new Svg(WIDTH, HEIGHT, label);
        this.bands = Math.max(1, bands);
        this.y = y;
        svg.text(LEFT, 16, label, "start", "title", 0);
        for (Tick t : y.ticks()) {
            double py = y.pixel(t.value());
            svg.line(LEFT, py, WIDTH - RIGHT, py, t.major() ? "#d0d4d9" : "#eef0f2", 1, null);
            if (t.major()) {
                svg.text(LEFT - 6, py + 4, t.label(), "end", "tick", 0);
            }
        }
        int step = xStep(this.bands);
        for (int s = 1; s <= this.bands; s++) {
            // Band 1 is labelled unless its neighbour label would crowd it.
            if (s % step == 0 || s == 1 && step >= 5) {
                double px = x(s - 1);
                svg.line(px, bottom(), px, bottom() + 4, "#495057", 1, null);
                svg.text(px, bottom() + 17, bandLabel.apply(s - 1), "middle", "tick", 0);
            }
        }
        svg.text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 6, xTitle, "middle", "axis", 0);
        svg.text(16, (TOP + bottom()) / 2.0, yTitle, "middle", "axis", -90);
    }

    /** The top of the plot area, px. */
    public static double top() {
        return TOP;
    }

    /** The bottom of the plot area (the x axis), px. */
    public static double bottom() {
        return HEIGHT - BOTTOM;
    }

    /** The svg being drawn. */
    public Svg svg() {
        return svg;
    }

    /** The width of one band, px. */
    public double band() {
        return (WIDTH - RIGHT - LEFT) / (double) bands;
    }

    /** The x pixel of the middle of band {@code index} (from 0). */
    public double x(int index) {
        return LEFT + (index + 0.5) * band();
    }

    /** The y pixel of {@code value}. */
    public double y(double value) {
        return y.pixel(value);
    }

    /** Draws the legend in the top right corner: one swatch and name per series. */
    public Plot legend(List<LegendEntry> entries) {
        double right = WIDTH - RIGHT;
        // Laid out from the right so it ends where the plot does; ~6.5 px per character at the legend's size.
        for (int i = entries.size() - 1; i >= 0; i--) {
            LegendEntry e = entries.get(i);
            double textWidth = e.name().length() * 6.5;
            svg.text(right, 16, e.name(), "end", "legend", 0);
            double sx = right - textWidth - 18;
            if (e.dash() == null && e.bar()) {
                svg.rect(sx, 7, 12, 10, e.color(), null);
            } else {
                svg.line(sx, 12, sx + 14, 12, e.color(), 2.5, e.dash());
            }
            right = sx - 14;
        }
        return this;
    }

    /** Draws the axes over the series and returns the image. */
    public String end() {
        svg.line(LEFT, TOP, LEFT, bottom(), "#495057", 1, null);
        svg.line(LEFT, bottom(), WIDTH - RIGHT, bottom(), "#495057", 1, null);
        return svg.end();
    }

    /**
     * The label step along x: the smallest of 1, 2, 5, 10, 15, 20, 30 s, ... giving at most 12 labels (every
     * multiple of the step, and second 1 when the step is 5 or more).
     */
    static int xStep(int seconds) {
        for (int s : X_STEPS) {
            int labels = s == 1 ? seconds : 1 + seconds / s;
            if (labels <= MAX_X_LABELS) {
                return s;
            }
        }
        return (int) Math.ceil(seconds / (double) (MAX_X_LABELS - 1));
    }

    /**
     * One series in a legend.
     *
     * @param name what it is called
     * @param color its colour
     * @param bar whether it is drawn as bars (a filled swatch) or a line
     * @param dash its dash array, or null for solid
     */
    public record LegendEntry(String name, String color, boolean bar, String dash) {
    }
}
