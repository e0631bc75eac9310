package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.MachineInfo;
import dev.sluice.bench.throughput.internal.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns a run's cell results into the console summary and the Markdown sections of the report: per cell the
 * median and min–max of the one-second figures, then Sluice's ratio to each peer against the targets, and
 * the latency runs. Only figures from the run itself appear; a cell that failed says so. Stateless.
 */
final class BenchReport {

    private BenchReport() {
    }

    /** The target for Sluice's median over {@code peer}'s, or NaN where it sets none. */
    static double target(Impl peer, Interaction interaction, int size) {
        boolean published = size == 4 || size == 140;
        if (!published || (interaction != Interaction.STREAM && interaction != Interaction.RESPONSE)) {
            return Double.NaN;
        }
        return switch (peer) {
            case RSOCKET_JAVA -> 5;
            case GRPC_JAVA -> interaction == Interaction.STREAM ? 3 : size == 4 ? 16 : 12;
            case GRPC_PROTO -> interaction == Interaction.STREAM ? 3 : size == 4 ? 12 : 10;
            default -> Double.NaN;
        };
    }

    /** The RPC cells' share of raw Sluice on the same cell that the RPC layer must keep at least. */
    static final double RPC_SHARE_OF_RAW = 0.75;
    /** The bridge must keep this share of grpc-java serving the same service directly. */
    static final double BRIDGE_SHARE_OF_GRPC = 0.90;
    /** Metrics may cost at most 5% of any cell. */
    static final double METRICS_SHARE_OF_RAW = 0.95;

    /** Messages per second, short: {@code 3.47 M}, {@code 0.093 M}. */
    static String rate(double perSecond) {
        double m = perSecond / 1e6;
        return String.format(Locale.ROOT, m >= 1 ? "%.2f M" : m >= 0.1 ? "%.3f M" : "%.4f M", m);
    }

    static String cellText(CellResult r) {
        if (r == null) {
            return "—";
        }
        if (!r.ok()) {
            return "failed";
        }
        Summary s = r.summary();
        return rate(s.median()) + " (" + rate(s.min()).replace(" M", "") + "–" + rate(s.max()) + ")";
    }

    /**
     * One cell's runs: a single run as {@link #cellText(CellResult)}; several ({@code --repeats}) as the median of
     * their medians, then each run's median in the order taken ({@code 6.52 M (runs 6.10 · 6.52 · 7.01)}).
     */
    static String cellText(List<CellResult> runs) {
        if (runs == null || runs.isEmpty()) {
            return "—";
        }
        if (runs.size() == 1) {
            return cellText(runs.get(0));
        }
        double[] medians = runs.stream().filter(CellResult::ok).mapToDouble(r -> r.summary().median()).toArray();
        List<String> each = new ArrayList<>();
        for (CellResult r : runs) {
            each.add(r.ok() ? rate(r.summary().median()).replace(" M", "") : "failed");
        }
        return (medians.length == 0 ? "failed" : rate(median(medians))) + " (runs " + String.join(" · ", each) + ")";
    }

    /** Throughput results keyed by interaction and size, then implementation: each cell's runs in run order. */
    private static Map<String, Map<Impl, List<CellResult>>> byRow(List<CellResult> results) {
        Map<String, Map<Impl, List<CellResult>>> rows = new LinkedHashMap<>();
        for (CellResult r : results) {
            rows.computeIfAbsent(rowKey(r.cell()), k -> new LinkedHashMap<>())
                .computeIfAbsent(r.cell().impl(), k -> new ArrayList<>()).add(r);
        }
        return rows;
    }

    private static String rowKey(Cell c) {
        return c.interaction().label() + " | " + c.size() + " B";
    }

    private static List<Impl> implsIn(List<CellResult> results) {
        List<Impl> impls = new ArrayList<>();
        for (Impl i : Impl.values()) {
            if (results.stream().anyMatch(r -> r.cell().impl() == i)) {
                impls.add(i);
            }
        }
        return impls;
    }

    /** The throughput table: one row per interaction and size, one column per implementation. */
    static String throughputTable(List<CellResult> results) {
        return byImplementation(results, BenchReport::cellText);
    }

    /** One row per interaction and size, one column per implementation, each cell's runs shown by {@code text}. */
    private static String byImplementation(List<CellResult> results, Function<List<CellResult>, String> text) {
        List<Impl> impls = implsIn(results);
        StringBuilder sb = new StringBuilder("| interaction | payload |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (Impl i : impls) {
            sb.append(' ').append(i.label()).append(" |");
            rule.append("---|");
        }
        sb.append('\n').append(rule).append('\n');
        byRow(results).forEach((key, cells) -> {
            sb.append("| ").append(key).append(" |");
            for (Impl i : impls) {
                sb.append(' ').append(text.apply(cells.get(i))).append(" |");
            }
            sb.append('\n');
        });
        return sb.toString();
    }

    /**
     * How busy each side of each cell was over its measured seconds ({@link CoreShares}), the median over the cell's
     * runs: one row per interaction and size, one column per implementation; empty when no cell was measured.
     */
    static String coreTable(List<CellResult> results) {
        if (results.stream().noneMatch(r -> r.ok() && r.cores() != null)) {
            return "";
        }
        return byImplementation(results, runs -> {
            CoreShares cores = CoreShares.medianOf(runs);
            return cores == null ? "—" : cores.text();
        });
    }

    /** Sluice's median over each transport peer's, with the target and whether the run met it. */
    static String ratioTable(List<CellResult> results) {
        return ratioTable(results, Impl.SLUICE, implsIn(results).stream()
            .filter(i -> i != Impl.SLUICE && i != Impl.SLUICE_RPC && i != Impl.GRPC_PROTO
                && i != Impl.SLUICE_METRICS && i != Impl.GRPC_BRIDGE).toList());
    }

    /** Sluice with metrics on over Sluice without, on the same cell: what metrics cost. */
    static String metricsRatioTable(List<CellResult> results) {
        return ratioTable(results, Impl.SLUICE_METRICS, implsIn(results).contains(Impl.SLUICE)
            ? List.of(Impl.SLUICE) : List.of());
    }

    /** Sluice RPC's median over grpc-java's with the same {@code .proto}, and over raw Sluice's on the same cell. */
    static String rpcRatioTable(List<CellResult> results) {
        return ratioTable(results, Impl.SLUICE_RPC, implsIn(results).stream()
            .filter(i -> i == Impl.GRPC_PROTO || i == Impl.SLUICE).toList());
    }

    /** The Sluice RPC service bridged to gRPC over the same service written on grpc-java, same client. */
    static String bridgeRatioTable(List<CellResult> results) {
        return ratioTable(results, Impl.GRPC_BRIDGE, implsIn(results).contains(Impl.GRPC_PROTO)
            ? List.of(Impl.GRPC_PROTO) : List.of());
    }

    private static String ratioTable(List<CellResult> results, Impl numerator, List<Impl> peers) {
        if (peers.isEmpty() || !implsIn(results).contains(numerator)) {
            return "";
        }
        StringBuilder sb = new StringBuilder("| interaction | payload |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (Impl p : peers) {
            sb.append(' ').append(numerator.label()).append(" / ").append(p.label()).append(" |");
            rule.append("---|");
        }
        sb.append('\n').append(rule).append('\n');
        byRow(results).forEach((key, cells) -> {
            List<CellResult> ours = cells.get(numerator);
            if (ours == null) {
                return;
            }
            sb.append("| ").append(key).append(" |");
            for (Impl p : peers) {
                sb.append(' ').append(ratioText(ours, cells.get(p), p)).append(" |");
            }
            sb.append('\n');
        });
        return sb.toString();
    }

    /**
     * Our median over the peer's. With several rounds ({@code --repeats}), each round's ratio pairs the two cells'
     * runs of that round, made minutes apart, and the figure is the median of those ratios, every round's shown
     * after it: a disturbance that slows one run then moves one ratio, not the result.
     */
    private static String ratioText(List<CellResult> ours, List<CellResult> peer, Impl p) {
        if (ours == null || peer == null) {
            return "—";
        }
        List<Double> ratios = new ArrayList<>();
        List<String> each = new ArrayList<>();
        for (int i = 0; i < Math.max(ours.size(), peer.size()); i++) {
            CellResult a = i < ours.size() ? ours.get(i) : null;
            CellResult b = i < peer.size() ? peer.get(i) : null;
            if (a == null || b == null || !a.ok() || !b.ok() || b.summary().median() <= 0) {
                each.add("failed");
            } else {
                double r = a.summary().median() / b.summary().median();
                ratios.add(r);
                each.add(shortRatio(r, a.cell().impl(), p));
            }
        }
        if (ratios.isEmpty()) {
            return "n/a (failed)";
        }
        double ratio = median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
        Cell cell = ours.get(0).cell();
        List<String> notes = new ArrayList<>();
        if (each.size() > 1) {
            notes.add("rounds " + String.join(" · ", each));
        }
        String target = targetText(ratio, cell, p);
        if (!target.isEmpty()) {
            notes.add(target);
        }
        String waiting = CoreShares.ratioNote(ours, peer, p);
        if (!waiting.isEmpty()) {
            notes.add(waiting);
        }
        return shortRatio(ratio, cell.impl(), p) + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }

    /**
     * A share in percent against the floor or raw Sluice (to a tenth for metrics, whose target is close to 100%), a
     * multiple against the other peers.
     */
    private static String shortRatio(double ratio, Impl ours, Impl p) {
        if (ours == Impl.SLUICE_METRICS) {
            return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
        }
        boolean share = p == Impl.NETTY_FLOOR || p == Impl.SLUICE || ours == Impl.GRPC_BRIDGE;
        return share ? String.format(Locale.ROOT, "%.0f%%", ratio * 100) : String.format(Locale.ROOT, "%.2f×", ratio);
    }

    /** The target for this ratio and whether {@code ratio} meets it, or empty where it sets none. */
    private static String targetText(double ratio, Cell ours, Impl p) {
        if (p == Impl.NETTY_FLOOR) {
            return "";
        }
        if (ours.impl() == Impl.SLUICE_METRICS && p == Impl.SLUICE) {
            return String.format(Locale.ROOT, "target ≥ %.0f%%: %s", METRICS_SHARE_OF_RAW * 100,
                ratio >= METRICS_SHARE_OF_RAW ? "met" : "NOT met");
        }
        if (ours.impl() == Impl.GRPC_BRIDGE && p == Impl.GRPC_PROTO) {
            return String.format(Locale.ROOT, "target ≥ %.0f%%: %s", BRIDGE_SHARE_OF_GRPC * 100,
                ratio >= BRIDGE_SHARE_OF_GRPC ? "met" : "NOT met");
        }
        if (ours.impl() == Impl.SLUICE_RPC && p == Impl.SLUICE) {
            return String.format(Locale.ROOT, "target ≥ %.0f%%: %s", RPC_SHARE_OF_RAW * 100,
                ratio >= RPC_SHARE_OF_RAW ? "met" : "NOT met");
        }
        double target = target(p, ours.interaction(), ours.size());
        if (Double.isNaN(target)) {
            return "";
        }
        return String.format(Locale.ROOT, "target ≥ %.0f×: %s", target, ratio >= target ? "met" : "NOT met");
    }

    /** Failures and warning lines, or empty. */
    static String problems(List<CellResult> results) {
        StringBuilder sb = new StringBuilder();
        for (CellResult r : results) {
            if (r.failure() != null) {
                sb.append("- ").append(r.cell().label()).append(": failed: ").append(r.failure()).append('\n');
            }
            int shown = 0;
            for (String w : r.warnings()) {
                if (shown++ == 5) {
                    sb.append("  - … ").append(r.warnings().size() - 5).append(" more\n");
                    break;
                }
                sb.append("- ").append(r.cell().label()).append(": ").append(w).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The latency runs, one row per cell (implementation, size, offered rate). A cell run more than once
     * ({@code --latency-repeats}) shows the median of each figure over its finished runs, and every run's p99 in
     * the order taken, so that one disturbed run can be told from a stack's own tail.
     */
    static String latencyTable(List<CellResult> paced) {
        Map<Cell, List<CellResult>> runs = new LinkedHashMap<>();
        for (CellResult r : paced) {
            runs.computeIfAbsent(r.cell(), c -> new ArrayList<>()).add(r);
        }
        boolean repeated = runs.values().stream().anyMatch(l -> l.size() > 1);
        // How loaded each side was at the offered rate: two rows at "90%" are alike only if their cores are.
        boolean cores = paced.stream().anyMatch(r -> r.cores() != null);
        StringBuilder sb = new StringBuilder("| implementation | interaction | payload | offered msgs/s | achieved"
            + " (median) | p50 µs | p99 µs | p99.9 µs | max µs |" + (repeated ? " p99 of each run, µs |" : "")
            + (cores ? " cores busy (median) |" : "")
            + "\n|---|---|---|---|---|---|---|---|---|" + (repeated ? "---|" : "") + (cores ? "---|" : "") + "\n");
        for (Map.Entry<Cell, List<CellResult>> e : runs.entrySet()) {
            Cell c = e.getKey();
            sb.append("| ").append(c.impl().label()).append(" | ").append(c.interaction().label()).append(" | ")
                .append(c.size()).append(" B | ").append(String.format(Locale.ROOT, "%,d", c.rate())).append(" | ");
            List<CellResult> done = e.getValue().stream().filter(r -> r.ok() && r.latency() != null).toList();
            if (done.isEmpty()) {
                sb.append("failed | | | | |").append(repeated ? " |" : "").append(cores ? " |" : "").append("\n");
                continue;
            }
            sb.append(rate(median(done.stream().mapToDouble(r -> r.summary().median()).toArray())))
                .append(String.format(Locale.ROOT, " | %.1f | %.1f | %.1f | %.1f |",
                    median(done.stream().mapToDouble(r -> r.latency().p50()).toArray()),
                    median(done.stream().mapToDouble(r -> r.latency().p99()).toArray()),
                    median(done.stream().mapToDouble(r -> r.latency().p999()).toArray()),
                    median(done.stream().mapToDouble(r -> r.latency().max()).toArray())));
            if (repeated) {
                List<String> each = new ArrayList<>();
                for (CellResult r : e.getValue()) {
                    each.add(r.ok() && r.latency() != null
                        ? String.format(Locale.ROOT, "%,.1f", r.latency().p99()) : "failed");
                }
                sb.append(' ').append(String.join(" · ", each)).append(" |");
            }
            if (cores) {
                CoreShares busy = CoreShares.medianOf(done);
                sb.append(' ').append(busy == null ? "—" : busy.text()).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The median of {@code values} (not empty): the middle one, or the mean of the middle two. */
    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** The run's context, shared by both sections. */
    static String context(MachineInfo m, List<String> jvmOptions, BenchOptions o, String command, String when) {
        Map<String, String> v = m.versions();
        return "- When: " + when + "\n"
            + "- Command: `" + command + "`\n"
            + "- Machine: " + m.cpuModel() + " (lscpu), " + m.cpus() + " CPUs; " + m.os() + "; server JVMs pinned"
            + " to cpu " + o.serverCpu() + ", client JVMs to cpu " + o.clientCpu() + " (taskset)\n"
            + "- JVM: " + m.jvm() + "; options: `" + String.join(" ", jvmOptions) + "`\n"
            + "- Libraries: Sluice " + v.get("sluice") + ", rsocket-java " + v.get("rsocket-java") + ", grpc-java "
            + v.get("grpc-java") + " (grpc-netty, unshaded), Netty " + v.get("netty") + " (shared by all), Reactor "
            + v.get("reactor-core") + ", reactor-netty " + v.get("reactor-netty") + "\n"
            + "- Per cell: " + o.warmupSeconds() + " s warm-up, then " + o.seconds() + " one-second figures from the"
            + " client; median (min–max) in messages per second. Request-response: " + o.window() + " requests in"
            + " flight; streams and channels: demand window " + o.demand() + "; fire-and-forget: rounds of "
            + o.demand() + " closed by a request-response fence.\n"
            + (o.repeats() == 1 ? "" : "- Rounds: every cell run " + o.repeats() + " times, round after round; a"
                + " cell's figure is the median of its runs' medians, a ratio the median of the rounds' ratios (each"
                + " pairs two cells' runs of one round).\n");
    }

    /** How each implementation is configured: said once, so a reader can judge the comparison. */
    static final String CONFIGURATIONS = """
        Configurations: every server and client is its own JVM on one connection over loopback TCP (epoll).
        Sluice and rsocket-java: each message a new payload over one constant, unreleasable direct buffer (the
        stacks read it by index, so no buffer is made per message). Sluice: defaults. rsocket-java: zero-copy
        decoding (`PayloadDecoder.ZERO_COPY`), `ByteBufPayload`s, streams with a bounded demand window (what
        `limitRate` does, without its queue). grpc-java: plain grpc-netty, epoll, one event loop,
        `directExecutor()`, plaintext, flow-control window 1,000,000, a hand-written byte[] marshaller that is
        `KnownLength` and `Drainable` (protobuf's fast path); unary calls in a closed loop as grpc-java's
        `AsyncClient` does; server streaming driven by `isReady()`/`onReadyHandler`. Raw-Netty floor: pre-encoded
        RSocket frames, length prefixes walked and nothing decoded, a flush every 128 frames as Sluice's writer
        does, no per-message allocation: the ceiling, where its cores are busy (see the cores table). A
        request-channel figure counts echoed messages (each crossed the wire twice).
        """;
}
