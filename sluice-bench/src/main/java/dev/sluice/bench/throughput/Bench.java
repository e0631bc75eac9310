package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.MachineInfo;
import dev.sluice.bench.throughput.internal.MarkdownSections;
import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code sluice bench}: the side-by-side throughput comparison of Sluice, rsocket-java, grpc-java and a raw-Netty
 * floor (see {@link BenchOptions#usage()}). Each cell runs a server JVM and a client JVM, each pinned to its own
 * core; the driver itself only starts them, reads their one-second figures and writes the report.
 *
 * <pre>{@code bin/sluice bench}</pre>
 * (or {@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.Bench}).
 *
 * <p>Exit status: 0 when every cell ran to the end, 1 when some failed, 2 on bad options or a machine that cannot
 * run it (no {@code taskset}, fewer than two cores).
 */
public final class Bench {

    private static final String SECTION_THROUGHPUT = "sluice-bench throughput";
    private static final String SECTION_LATENCY = "sluice-bench latency";
    /** A cell's cost beyond warm-up and measurement, for the estimate: two JVM starts and the handshakes. */
    private static final int CELL_OVERHEAD_SECONDS = 4;

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println();
            System.err.print(BenchOptions.usage());
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.print(BenchOptions.usage());
            return;
        }
        // With --json, stdout carries the JSON object alone, so that it can be piped into a parser.
        PrintStream out = o.json() ? new PrintStream(OutputStream.nullOutputStream()) : System.out;
        String unfit = checkMachine(o);
        if (unfit != null) {
            System.err.println("bench: " + unfit);
            System.exit(2);
            return;
        }
        Path logs = o.logs() != null ? Files.createDirectories(o.logs()) : Files.createTempDirectory("sluice-bench-");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        // bin/sluice says how it was launched, so that the report quotes the command a reader would type.
        String launcher = System.getProperty("sluice.bench.launcher",
            "java -cp " + classpath + " " + Bench.class.getName());
        String command = launcher + (args.length == 0 ? "" : " " + quote(args));
        CellRunner runner = new CellRunner(o, logs, java, classpath, out);

        List<Cell> cells = plan(o, out);
        int perCell = o.warmupSeconds() + o.seconds() + CELL_OVERHEAD_SECONDS;
        int latencyCells = o.latencyPercents().isEmpty() ? 0 : (int) cells.stream()
            .filter(c -> c.interaction() == Interaction.RESPONSE).count() * o.latencyPercents().size();
        out.printf("sluice bench: %d cells%s, about %d min; JVM logs in %s%n", cells.size(),
            latencyCells == 0 ? "" : " + " + latencyCells + " latency runs",
            Math.round((cells.size() + latencyCells) * perCell / 60.0), logs);
        MachineInfo machine = MachineInfo.probe();
        String when = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

        List<CellResult> results = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            results.add(runner.run(cells.get(i), "[" + (i + 1) + "/" + cells.size() + "]"));
        }
        List<CellResult> paced = new ArrayList<>();
        if (latencyCells > 0) {
            List<Cell> pacedCells = pacedCells(results, o.latencyPercents());
            for (int i = 0; i < pacedCells.size(); i++) {
                paced.add(runner.run(pacedCells.get(i), "[latency " + (i + 1) + "/" + pacedCells.size() + "]"));
            }
        }

        String throughput = BenchReport.throughputTable(results);
        String ratios = BenchReport.ratioTable(results);
        String rpcRatios = BenchReport.rpcRatioTable(results);
        String metricsRatios = BenchReport.metricsRatioTable(results);
        List<CellResult> all = new ArrayList<>(results);
        all.addAll(paced);
        String problems = BenchReport.problems(all);
        out.println();
        out.println("Throughput, msgs/s: median (min–max) of " + o.seconds() + " one-second figures");
        out.print(throughput);
        if (!ratios.isEmpty()) {
            out.println();
            out.println("Sluice / peer (medians)");
            out.print(ratios);
        }
        if (!rpcRatios.isEmpty()) {
            out.println();
            out.println("Sluice RPC / peer (medians)");
            out.print(rpcRatios);
        }
        if (!metricsRatios.isEmpty()) {
            out.println();
            out.println("Sluice with metrics / without (medians)");
            out.print(metricsRatios);
        }
        if (!paced.isEmpty()) {
            out.println();
            out.println("Latency at fixed offered rates (from each request's due time)");
            out.print(BenchReport.latencyTable(paced));
        }
        if (!problems.isEmpty()) {
            out.println();
            out.println("Problems");
            out.print(problems);
        }

        String context = BenchReport.context(machine, runner.jvmOptions(), o, command, when);
        String body = "## Throughput\n\n" + context + "\n" + BenchReport.CONFIGURATIONS + "\n"
            + "Messages per second, median (min–max):\n\n" + throughput
            + (ratios.isEmpty() ? "" : "\nSluice's median over each peer's, against the issue's targets:\n\n"
                + ratios)
            + (rpcRatios.isEmpty() ? "" : "\nSluice RPC's median over grpc-java's with the same `.proto`, and over raw"
                + " Sluice's on the same cell, against the issue's targets:\n\n" + rpcRatios)
            + (metricsRatios.isEmpty() ? "" : "\nSluice with metrics on (`sluice-micrometer`, a Prometheus registry)"
                + " over Sluice without, on the same cell:\n\n" + metricsRatios)
            + (problems.isEmpty() ? "" : "\nProblems seen in this run:\n\n" + problems);
        MarkdownSections.write(o.out(), "Benchmarks", SECTION_THROUGHPUT, body);
        if (!paced.isEmpty()) {
            String latency = "## Latency under load\n\n" + context + "- Offered rates: "
                + o.latencyPercents().stream().map(p -> p + "%").collect(Collectors.joining(", "))
                + " of each implementation's measured request-response median, open loop; response times from"
                + " each request's due time (no coordinated omission), HdrHistogram.\n\n"
                + BenchReport.latencyTable(paced);
            MarkdownSections.write(o.out(), "Benchmarks", SECTION_LATENCY, latency);
        }
        out.println();
        out.println("Report written to " + o.out().toAbsolutePath());
        boolean allOk = all.stream().allMatch(CellResult::ok);
        if (o.json()) {
            System.out.println(BenchJson.render(machine, when, command, allOk ? 0 : 1, o.out(), all));
            System.out.flush();
        }
        System.exit(allOk ? 0 : 1);
    }

    /** Every selected cell an implementation implements, grouped by interaction and size. */
    static List<Cell> plan(BenchOptions o, PrintStream out) {
        List<Cell> cells = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Interaction interaction : o.interactions()) {
            for (int size : o.sizes()) {
                for (Impl impl : o.impls()) {
                    if (impl.implementsInteraction(interaction)) {
                        cells.add(Cell.max(impl, interaction, size));
                    } else if (size == o.sizes().get(0)) {
                        skipped.add(impl.label() + " " + interaction.label());
                    }
                }
            }
        }
        if (!skipped.isEmpty()) {
            // grpc-java has no such interactions, and the floor only moves stream and request-response bytes.
            out.println("not in the comparison, skipped: " + String.join(", ", skipped));
        }
        return cells;
    }

    /** The latency runs: each finished request-response cell at each percentage of its median. */
    static List<Cell> pacedCells(List<CellResult> results, List<Integer> percents) {
        List<Cell> cells = new ArrayList<>();
        for (CellResult r : results) {
            Cell c = r.cell();
            if (c.interaction() != Interaction.RESPONSE || !r.ok()) {
                continue;
            }
            for (int p : percents) {
                long rate = Math.round(r.summary().median() * p / 100.0);
                if (rate > 0) {
                    cells.add(new Cell(c.impl(), c.interaction(), c.size(), rate));
                }
            }
        }
        return cells;
    }

    /** Why this machine cannot run the benchmark, or null. */
    static String checkMachine(BenchOptions o) {
        if (!onPath("taskset")) {
            return "taskset not found on PATH: the benchmark pins the server and client JVMs to separate cores"
                + " with it (Debian/Ubuntu: apt-get install util-linux)";
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        int needed = Math.max(o.serverCpu(), o.clientCpu()) + 1;
        if (cpus < needed) {
            return "needs cpus " + o.serverCpu() + " and " + o.clientCpu() + " but this JVM sees " + cpus
                + " cpu(s); choose others with --server-cpu and --client-cpu";
        }
        return null;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static String quote(String[] args) {
        List<String> q = new ArrayList<>();
        for (String a : args) {
            q.add(a.matches("[A-Za-z0-9_./:=,+-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return String.join(" ", q);
    }
}
