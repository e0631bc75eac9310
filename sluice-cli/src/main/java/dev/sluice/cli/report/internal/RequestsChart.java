package dev.sluice.cli.report.internal;

import dev.sluice.cli.load.SecondStats;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests per second by outcome: a stacked bar per second — accepted (answered) at the bottom, rejected on top,
 * failed (if any) above — on a linear axis. Stateless.
 */
public final class RequestsChart {

    private RequestsChart() {
    }

    /** The chart of {@code seconds} as an SVG image. */
    public static String render(String title, List<SecondStats> seconds) {
        long max = 0;
        boolean anyFailed = false;
        for (SecondStats s : seconds) {
            max = Math.max(max, s.completed());
            anyFailed |= s.failed() > 0;
        }
        Plot plot = new Plot(title, seconds.size(), new LinearScale(max, Plot.top(), Plot.bottom()),
            "requests / s");
        List<Plot.LegendEntry> legend = new ArrayList<>();
        legend.add(new Plot.LegendEntry("accepted", Palette.ACCEPTED, true, null));
        legend.add(new Plot.LegendEntry("rejected", Palette.REJECTED, true, null));
        if (anyFailed) {
            legend.add(new Plot.LegendEntry("failed", Palette.FAILED, true, null));
        }
        plot.legend(legend);
        double width = Math.max(1, plot.band() * 0.8);
        Svg svg = plot.svg();
        for (int i = 0; i < seconds.size(); i++) {
            SecondStats s = seconds.get(i);
            double left = plot.x(i) - width / 2;
            long below = 0;
            below = bar(plot, svg, left, width, below, s.responses(), Palette.ACCEPTED,
                "second " + (s.second() + 1) + ": " + s.responses() + " accepted");
            below = bar(plot, svg, left, width, below, s.rejected(), Palette.REJECTED,
                "second " + (s.second() + 1) + ": " + s.rejected() + " rejected");
            bar(plot, svg, left, width, below, s.failed(), Palette.FAILED,
                "second " + (s.second() + 1) + ": " + s.failed() + " failed");
        }
        return plot.end();
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
