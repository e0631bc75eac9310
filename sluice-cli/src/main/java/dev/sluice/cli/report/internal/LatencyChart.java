package dev.sluice.cli.report.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.SecondStats;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Latency per second on a logarithmic axis (latencies here range from under a millisecond to seconds): the p50
 * and p99 of the responses received in each second, and — dashed, when there are rejections — the p99 of the
 * rejections. Seconds without responses leave a gap in the lines. Stateless.
 */
public final class LatencyChart {

    /** Points are drawn on the lines up to this many seconds; beyond, they would merge into the line. */
    private static final int MAX_POINTS = 120;
    private static final String REJECTED_DASH = "5 3";

    private LatencyChart() {
    }

    /** The chart of {@code seconds} as an SVG image. */
    public static String render(String title, List<SecondStats> seconds) {
        long min = Long.MAX_VALUE;
        long max = 0;
        boolean anyRejected = false;
        for (SecondStats s : seconds) {
            for (Latency l : List.of(s.responseLatency(), s.rejectionLatency())) {
                if (!l.isEmpty()) {
                    min = Math.min(min, l.p50Micros());
                    max = Math.max(max, l.p99Micros());
                }
            }
            anyRejected |= !s.rejectionLatency().isEmpty();
        }
        LogScale scale = new LogScale(min == Long.MAX_VALUE ? 1 : min, max, Plot.top(), Plot.bottom());
        Plot plot = new Plot(title, seconds.size(), scale, "latency (log scale)");
        List<Plot.LegendEntry> legend = new ArrayList<>();
        legend.add(new Plot.LegendEntry("p50", Palette.P50, false, null));
        legend.add(new Plot.LegendEntry("p99", Palette.P99, false, null));
        if (anyRejected) {
            legend.add(new Plot.LegendEntry("p99 of rejections", Palette.REJECTED, false, REJECTED_DASH));
        }
        plot.legend(legend);
        if (anyRejected) {
            series(plot, seconds, SecondStats::rejectionLatency, Latency::p99Micros, Palette.REJECTED,
                REJECTED_DASH, "p99 of rejections", 2);
        }
        series(plot, seconds, SecondStats::responseLatency, Latency::p50Micros, Palette.P50, null, "p50", 3);
        series(plot, seconds, SecondStats::responseLatency, Latency::p99Micros, Palette.P99, null, "p99", 3);
        return plot.end();
    }

    /**
     * One line, broken where a second has no value, with a point of {@code pointRadius} per value (their tooltips
     * give the numbers).
     */
    private static void series(Plot plot, List<SecondStats> seconds,
                               Function<SecondStats, Latency> latency,
                               ToLongFunction<Latency> percentile, String color, String dash, String name,
                               double pointRadius) {
        Svg svg = plot.svg();
        double[] xs = new double[seconds.size()];
        double[] ys = new double[seconds.size()];
        int run = 0;
        for (int i = 0; i < seconds.size(); i++) {
            Latency l = latency.apply(seconds.get(i));
            if (l.isEmpty()) {
                svg.polyline(xs, ys, run, color, 2, dash);
                run = 0;
                continue;
            }
            xs[run] = plot.x(i);
            ys[run] = plot.y(percentile.applyAsLong(l));
            run++;
        }
        svg.polyline(xs, ys, run, color, 2, dash);
        if (seconds.size() > MAX_POINTS) {
            return;
        }
        for (int i = 0; i < seconds.size(); i++) {
            SecondStats s = seconds.get(i);
            Latency l = latency.apply(s);
            if (!l.isEmpty()) {
                long v = percentile.applyAsLong(l);
                svg.circle(plot.x(i), plot.y(v), pointRadius, color,
                    "second " + (s.second() + 1) + ": " + name + " " + Latency.format(v));
            }
        }
    }
}
