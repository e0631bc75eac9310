package dev.sluice.cli.report.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.report.ServerTimeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * One line per server over the seconds of a run: the requests its leases allowed per second (linear axis), or its
 * own p99 latency per second (log axis; a second without responses leaves a gap). Stateless.
 */
public final class ServerLinesChart {

    private ServerLinesChart() {
    }

    /** Requests leased per second by each server. */
    public static String leases(String title, List<ServerTimeline> servers) {
        long max = 1;
        int seconds = 0;
        for (ServerTimeline t : servers) {
            seconds = Math.max(seconds, t.seconds().size());
            for (ServerTimeline.Second s : t.seconds()) {
                max = Math.max(max, s.leased());
            }
        }
        Plot plot = new Plot(title, seconds, new LinearScale(max, Plot.top(), Plot.bottom()), "leased requests / s");
        return lines(plot, servers, ServerTimeline.Second::leased, v -> v + " leased");
    }

    /** Each server's own p99 latency per second. */
    public static String latency(String title, List<ServerTimeline> servers) {
        long min = Long.MAX_VALUE;
        long max = 1;
        int seconds = 0;
        for (ServerTimeline t : servers) {
            seconds = Math.max(seconds, t.seconds().size());
            for (ServerTimeline.Second s : t.seconds()) {
                if (s.p99Micros() >= 0) {
                    min = Math.min(min, Math.max(1, s.p99Micros()));
                    max = Math.max(max, s.p99Micros());
                }
            }
        }
        Plot plot = new Plot(title, seconds, new LogScale(min == Long.MAX_VALUE ? 1 : min, max, Plot.top(),
            Plot.bottom()), "server p99 (log scale)");
        return lines(plot, servers, ServerTimeline.Second::p99Micros, v -> "p99 " + Latency.format(v));
    }

    /** The legend shares the title's line: a server on this machine is named by its port alone. */
    private static String shortName(String server) {
        return server.startsWith("127.0.0.1:") ? server.substring("127.0.0.1".length()) : server;
    }

    private static String lines(Plot plot, List<ServerTimeline> servers, ToLongFunction<ServerTimeline.Second> value,
                                LongFunction<String> tooltip) {
        List<Plot.LegendEntry> legend = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            legend.add(new Plot.LegendEntry(shortName(servers.get(i).server()), Palette.server(i), false, null));
        }
        plot.legend(legend);
        Svg svg = plot.svg();
        for (int i = 0; i < servers.size(); i++) {
            ServerTimeline t = servers.get(i);
            String color = Palette.server(i);
            double[] xs = new double[t.seconds().size()];
            double[] ys = new double[t.seconds().size()];
            int run = 0;
            for (int s = 0; s < t.seconds().size(); s++) {
                long v = value.applyAsLong(t.seconds().get(s));
                if (v < 0) {
                    svg.polyline(xs, ys, run, color, 2, null);
                    run = 0;
                    continue;
                }
                xs[run] = plot.x(s);
                ys[run] = plot.y(v);
                run++;
                svg.circle(plot.x(s), plot.y(v), 2, color, t.server() + ", second " + (s + 1) + ": "
                    + tooltip.apply(v));
            }
            svg.polyline(xs, ys, run, color, 2, null);
        }
        return plot.end();
    }
}
