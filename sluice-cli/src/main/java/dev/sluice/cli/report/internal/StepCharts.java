package dev.sluice.cli.report.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.StepStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Charts of ramp runs against offered load: one band per step along x, labelled with the step's offered rate.
 * Several runs of the same ramp share a chart, one colour per run; a step without a value leaves a gap in its line.
 * Stateless.
 */
public final class StepCharts {

    private static final String X_TITLE = "offered load (requests / s)";
    private static final String P95_DASH = "6 3";
    private static final String OFFERED_DASH = "2 4";

    private StepCharts() {
    }

    /**
     * One run of a ramp, as a chart shows it.
     *
     * @param name its name in legends and tooltips
     * @param color its colour where runs are compared
     * @param steps its steps, in order, the same offered rates as the other runs'
     */
    public record Run(String name, String color, List<StepStats> steps) {
    }

    /** The share of requests that succeeded per step, 0 to 100 %, one line per run. */
    public static String successRate(String title, List<Run> runs) {
        Plot plot = plot(title, runs, new LinearScale(100, Plot.top(), Plot.bottom()), "success (% of sent)");
        List<Plot.LegendEntry> legend = new ArrayList<>();
        for (Run r : runs) {
            legend.add(new Plot.LegendEntry(r.name(), r.color(), false, null));
        }
        plot.legend(legend);
        for (Run r : runs) {
            line(plot, r.steps(), s -> s.sent() == 0 ? Double.NaN : 100 * s.successRatio(), r.color(), null,
                s -> String.format(Locale.ROOT, "%s, offered %d/s: %.1f %% succeeded (%d of %d)", r.name(),
                    s.offeredRate(), 100 * s.successRatio(), s.successes(), s.sent()));
        }
        return plot.end();
    }

    /** Successes per second per step, one line per run, under a dotted line of the load offered. */
    public static String goodput(String title, List<Run> runs) {
        double max = 0;
        for (Run r : runs) {
            for (StepStats s : r.steps()) {
                max = Math.max(max, Math.max(s.offeredRate(), s.successesPerSecond()));
            }
        }
        Plot plot = plot(title, runs, new LinearScale(max, Plot.top(), Plot.bottom()), "successes / s");
        List<Plot.LegendEntry> legend = new ArrayList<>();
        legend.add(new Plot.LegendEntry("offered", Palette.FAILED, false, OFFERED_DASH));
        for (Run r : runs) {
            legend.add(new Plot.LegendEntry(r.name(), r.color(), false, null));
        }
        plot.legend(legend);
        if (!runs.isEmpty()) {
            line(plot, runs.get(0).steps(), StepStats::offeredRate, Palette.FAILED, OFFERED_DASH, null);
        }
        for (Run r : runs) {
            line(plot, r.steps(), StepStats::successesPerSecond, r.color(), null,
                s -> String.format(Locale.ROOT, "%s, offered %d/s: %.1f successes/s", r.name(), s.offeredRate(),
                    s.successesPerSecond()));
        }
        return plot.end();
    }

    /**
     * The p50 and p95 latency of a run's successes and of its failures per step, on a log axis spanning
     * {@code [minMicros, maxMicros]} (the same for every run, so that their charts compare).
     */
    public static String latency(String title, Run run, long minMicros, long maxMicros) {
        LogScale scale = new LogScale(minMicros, maxMicros, Plot.top(), Plot.bottom());
        Plot plot = plot(title, List.of(run), scale, "latency (log scale)");
        plot.legend(List.of(
            new Plot.LegendEntry("success p50", Palette.ACCEPTED, false, null),
            new Plot.LegendEntry("p95", Palette.ACCEPTED, false, P95_DASH),
            new Plot.LegendEntry("failure p50", Palette.REJECTED, false, null),
            new Plot.LegendEntry("p95", Palette.REJECTED, false, P95_DASH)));
        latencyLine(plot, run, "success", StepStats::successLatency, false, Palette.ACCEPTED, null);
        latencyLine(plot, run, "success", StepStats::successLatency, true, Palette.ACCEPTED, P95_DASH);
        latencyLine(plot, run, "failure", StepStats::failureLatency, false, Palette.REJECTED, null);
        latencyLine(plot, run, "failure", StepStats::failureLatency, true, Palette.REJECTED, P95_DASH);
        return plot.end();
    }

    /** The smallest p50 and largest p95 of successes and failures over {@code runs}, µs: {min, max}. */
    public static long[] latencyRange(List<Run> runs) {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (Run r : runs) {
            for (StepStats s : r.steps()) {
                for (Latency l : List.of(s.successLatency(), s.failureLatency())) {
                    if (!l.isEmpty()) {
                        min = Math.min(min, l.p50Micros());
                        max = Math.max(max, l.p95Micros());
                    }
                }
            }
        }
        return new long[] {min == Long.MAX_VALUE ? 1 : min, max};
    }

    /** A run's requests per step by outcome: stacked bars of successes, rejections, timeouts and failures. */
    public static String outcomes(String title, Run run) {
        long max = 0;
        boolean anyFailed = false;
        for (StepStats s : run.steps()) {
            max = Math.max(max, s.sent());
            anyFailed |= s.failed() > 0;
        }
        Plot plot = plot(title, List.of(run), new LinearScale(max, Plot.top(), Plot.bottom()), "requests");
        List<Plot.LegendEntry> legend = new ArrayList<>();
        legend.add(new Plot.LegendEntry("success", Palette.ACCEPTED, true, null));
        legend.add(new Plot.LegendEntry("rejected", Palette.REJECTED, true, null));
        legend.add(new Plot.LegendEntry("timed out", Palette.TIMED_OUT, true, null));
        if (anyFailed) {
            legend.add(new Plot.LegendEntry("failed", Palette.FAILED, true, null));
        }
        plot.legend(legend);
        double width = Math.max(1, plot.band() * 0.7);
        Svg svg = plot.svg();
        List<StepStats> steps = run.steps();
        for (int i = 0; i < steps.size(); i++) {
            StepStats s = steps.get(i);
            double left = plot.x(i) - width / 2;
            String at = "offered " + s.offeredRate() + "/s: ";
            long below = 0;
            below = bar(plot, svg, left, width, below, s.successes(), Palette.ACCEPTED,
                at + s.successes() + " success");
            below = bar(plot, svg, left, width, below, s.rejected(), Palette.REJECTED,
                at + s.rejected() + " rejected");
            below = bar(plot, svg, left, width, below, s.timedOut(), Palette.TIMED_OUT,
                at + s.timedOut() + " timed out");
            bar(plot, svg, left, width, below, s.failed(), Palette.FAILED, at + s.failed() + " failed");
        }
        return plot.end();
    }

    private static Plot plot(String title, List<Run> runs, Scale y, String yTitle) {
        List<StepStats> steps = runs.isEmpty() ? List.of() : runs.get(0).steps();
        return new Plot(title, steps.size(),
            i -> i < steps.size() ? Integer.toString(steps.get(i).offeredRate()) : "", X_TITLE, y, yTitle);
    }

    private static void latencyLine(Plot plot, Run run, String what,
                                    Function<StepStats, Latency> latency, boolean p95,
                                    String color, String dash) {
        String percentile = p95 ? "p95" : "p50";
        line(plot, run.steps(), s -> {
            Latency l = latency.apply(s);
            return l.isEmpty() ? Double.NaN : p95 ? l.p95Micros() : l.p50Micros();
        }, color, dash, s -> {
            Latency l = latency.apply(s);
            return run.name() + ", offered " + s.offeredRate() + "/s: " + what + " " + percentile + " "
                + Latency.format(p95 ? l.p95Micros() : l.p50Micros()) + " (" + l.count() + ")";
        });
    }

    /**
     * A line through each step's value, broken where it is NaN, with a point per value whose tooltip is
     * {@code tooltip} of the step (no points when {@code tooltip} is null).
     */
    private static void line(Plot plot, List<StepStats> steps, ToDoubleFunction<StepStats> value, String color,
                             String dash, Function<StepStats, String> tooltip) {
        Svg svg = plot.svg();
        double[] xs = new double[steps.size()];
        double[] ys = new double[steps.size()];
        int run = 0;
        for (int i = 0; i < steps.size(); i++) {
            double v = value.applyAsDouble(steps.get(i));
            if (Double.isNaN(v)) {
                svg.polyline(xs, ys, run, color, 2, dash);
                run = 0;
                continue;
            }
            xs[run] = plot.x(i);
            ys[run] = plot.y(v);
            run++;
        }
        svg.polyline(xs, ys, run, color, 2, dash);
        if (tooltip == null) {
            return;
        }
        for (int i = 0; i < steps.size(); i++) {
            double v = value.applyAsDouble(steps.get(i));
            if (!Double.isNaN(v)) {
                svg.circle(plot.x(i), plot.y(v), 3, color, tooltip.apply(steps.get(i)));
            }
        }
    }

    /** Stacks {@code count} on {@code below}; returns the new top. */
    private static long bar(Plot plot, Svg svg, double left, double width, long below, long count, String color,
                            String tooltip) {
        if (count == 0) {
            return below;
        }
        double y0 = plot.y(below);
        double y1 = plot.y(below + count);
        svg.rect(left, y1, width, Math.max(0.5, y0 - y1), color, tooltip);
        return below + count;
    }
}
