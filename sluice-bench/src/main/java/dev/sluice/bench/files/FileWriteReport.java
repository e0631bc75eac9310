package dev.sluice.bench.files;

import dev.sluice.bench.files.FileWriteBenchmark.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The Markdown tables {@link FileWriteBenchmark} prints at the end: per row and parallelism, each target's MB/s with
 * Sluice's standing (against the best peer, paired, against the ceiling), then its retained heap, heap in use and
 * direct memory.
 */
final class FileWriteReport {

    private static final long MIB = FileWriteBenchmark.MIB;

    /**
     * One target's figures on one row. {@code retainedAbove} is the most, over the iterations, of the heap in use
     * after a collection during the iteration minus the heap in use after the full collection before it: what the
     * writer kept alive, without the JVM's own live data (which differs by a MiB or so between the targets' JVMs,
     * whose libraries load different classes). {@code paired} (Sluice's row only, else null) is, of the peers,
     * the one with the lowest median per-round ratio of Sluice's MB/s to the peer's: that median and its interval.
     */
    record Result(String target, Workload workload, int parallelism, double mbps, long retainedAbove,
            long heap, long direct, PairedRatio paired) {
    }

    private FileWriteReport() {
    }

    static String tables(List<Result> results, List<String> targets, Map<String, String> names) {
        StringBuilder out = new StringBuilder();
        section(out, "Write throughput, MB/s (higher is better)", results, targets, names,
                r -> String.format(Locale.ROOT, r.mbps() < 100 ? "%.1f" : "%.0f", r.mbps()), true);
        section(out, "Peak retained heap above the JVM's baseline (in use after a collection, less what the full "
                + "collection before the iteration left), MiB (lower is better)", results, targets, names,
                r -> String.format(Locale.ROOT, "%.1f", r.retainedAbove() / (double) MIB), false);
        section(out, "Peak heap in use, garbage included, MiB (lower is better)", results, targets, names,
                r -> String.valueOf(r.heap() / MIB), false);
        section(out, "Peak direct memory, MiB (lower is better)", results, targets, names,
                r -> String.valueOf(r.direct() / MIB), false);
        return out.toString();
    }

    private static void section(StringBuilder out, String title, List<Result> results, List<String> targets,
            Map<String, String> names, Function<Result, String> cell, boolean ratios) {
        out.append("\n### ").append(title).append("\n\n| workload | p |");
        for (String t : targets) {
            out.append(' ').append(names.getOrDefault(t, t)).append(" |");
        }
        if (ratios) {
            out.append(" Sluice / best peer | paired (95% CI) | Sluice / ceiling |");
        }
        out.append("\n|---|---|").append("---|".repeat(targets.size() + (ratios ? 3 : 0))).append('\n');
        for (Workload w : FileWriteBenchmark.WORKLOADS) {
            for (int p : FileWriteBenchmark.PARALLELISM) {
                Map<String, Result> row = new LinkedHashMap<>();
                for (Result r : results) {
                    if (r.workload().equals(w) && r.parallelism() == p) {
                        row.put(r.target(), r);
                    }
                }
                if (row.isEmpty()) {
                    continue;
                }
                out.append("| ").append(w.label()).append(" | ").append(p).append(" |");
                for (String t : targets) {
                    Result r = row.get(t);
                    out.append(' ').append(r == null ? "-" : cell.apply(r)).append(" |");
                }
                if (ratios) {
                    Result ours = row.get("sluice");
                    double bestPeer = row.values().stream()
                            .filter(r -> !r.target().equals("sluice") && !r.target().equals("ceiling"))
                            .mapToDouble(Result::mbps).max().orElse(Double.NaN);
                    Result ceiling = row.get("ceiling");
                    out.append(' ').append(ours == null ? "-"
                            : String.format(Locale.ROOT, "%.2f", ours.mbps() / bestPeer)).append(" |");
                    PairedRatio paired = ours == null ? null : ours.paired();
                    out.append(' ').append(paired == null ? "-" : String.format(Locale.ROOT, "%.2f (%.2f-%.2f)",
                            paired.median(), paired.low(), paired.high())).append(" |");
                    out.append(' ').append(ours == null || ceiling == null ? "-"
                            : String.format(Locale.ROOT, "%.0f%%", 100 * ours.mbps() / ceiling.mbps())).append(" |");
                }
                out.append('\n');
            }
        }
    }
}
