package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchPki;
import dev.sluice.bench.throughput.internal.MachineInfo;
import dev.sluice.bench.throughput.internal.MarkdownSections;
import dev.sluice.bench.throughput.internal.ScratchDir;
import dev.sluice.transport.netty.TlsServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private static final String SECTION_TRANSPORTS = "sluice-bench transports";
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
        List<Cell> cells = plan(o, out);
        boolean tls = cells.stream().anyMatch(c -> c.transport() == Transport.TLS);
        boolean unix = cells.stream().anyMatch(c -> c.transport() == Transport.UNIX);
        // Made for this run and removed at its end (or at exit, whatever ends it).
        ScratchDir certificates = null;
        ScratchDir sockets = null;
        int status;
        try {
            certificates = tls ? ScratchDir.create("sluice-bench-tls-") : null;
            sockets = unix ? ScratchDir.create("sluice-bench-sock-") : null;
            if (certificates != null) {
                BenchPki.write(certificates.path());
                out.println("TLS: a CA and a certificate for 127.0.0.1 made for this run in " + certificates.path()
                    + "; provider: " + tlsProvider(o));
            }
            CellRunner.RunFiles files = new CellRunner.RunFiles(certificates == null ? null : certificates.path(),
                sockets == null ? null : sockets.path(), o.transportRun());
            status = run(o, cells, new CellRunner(o, logs, java, classpath, out, files), logs, command, out);
        } catch (IOException e) {
            // A file of the run (certificates, the report) could not be written: one line, as for any run failure.
            System.err.println("bench: " + ioMessage(e));
            status = 1;
        } catch (UncheckedIOException e) {
            System.err.println("bench: " + ioMessage(e.getCause()));
            status = 1;
        } finally {
            if (certificates != null) {
                certificates.close();
            }
            if (sockets != null) {
                sockets.close();
            }
        }
        System.exit(status);
    }

    /** Runs {@code cells} (and the latency runs), prints and writes the report; returns the exit status. */
    private static int run(BenchOptions o, List<Cell> cells, CellRunner runner, Path logs, String command,
            PrintStream out) throws Exception {
        int perCell = o.warmupSeconds() + o.seconds() + CELL_OVERHEAD_SECONDS;
        int latencyCells = o.latencyPercents().isEmpty() ? 0 : (int) cells.stream()
            .filter(c -> c.interaction() == Interaction.RESPONSE && c.transport() == Transport.TCP).count()
            * o.latencyPercents().size() * o.latencyRepeats();
        int runs = cells.size() * o.repeats();
        out.printf("sluice bench: %d cells%s%s, about %d min; JVM logs in %s%n", cells.size(),
            o.repeats() == 1 ? "" : " × " + o.repeats() + " rounds",
            latencyCells == 0 ? "" : " + " + latencyCells + " latency runs",
            Math.round((runs + latencyCells) * perCell / 60.0), logs);
        MachineInfo machine = MachineInfo.probe();
        String when = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

        List<CellResult> results = new ArrayList<>();
        // Round after round (see latency below): the runs of one cell are spread over the whole run, and the cells
        // a ratio compares are run minutes apart at most, in every round.
        for (int round = 0; round < o.repeats(); round++) {
            for (Cell cell : cells) {
                results.add(runner.run(cell, "[" + (results.size() + 1) + "/" + runs + "]"));
            }
        }
        List<CellResult> paced = new ArrayList<>();
        if (latencyCells > 0) {
            List<Cell> pacedCells = pacedCells(results, o.latencyPercents());
            int total = pacedCells.size() * o.latencyRepeats();
            // Round after round rather than one cell's repeats together: a disturbance of the machine then falls
            // on one run of several cells, not on every run of one.
            for (int round = 0; round < o.latencyRepeats(); round++) {
                for (Cell cell : pacedCells) {
                    paced.add(runner.run(cell, "[latency " + (paced.size() + 1) + "/" + total + "]"));
                }
            }
        }

        // The comparison of stacks is over plaintext TCP; the other transports have tables of their own.
        List<CellResult> tcp = results.stream().filter(r -> r.cell().transport() == Transport.TCP).toList();
        boolean transportRun = o.transportRun();
        String throughput = tcp.isEmpty() ? "" : BenchReport.throughputTable(tcp);
        String ratios = BenchReport.ratioTable(tcp);
        String cores = BenchReport.coreTable(tcp);
        String rpcRatios = BenchReport.rpcRatioTable(tcp);
        String metricsRatios = BenchReport.metricsRatioTable(tcp);
        String bridgeRatios = BenchReport.bridgeRatioTable(tcp);
        String transports = TransportReport.transportTable(results, o.transports());
        String tlsRatios = TransportReport.tlsRatioTable(results);
        List<CellResult> all = new ArrayList<>(results);
        all.addAll(paced);
        String problems = BenchReport.problems(all);
        Map<String, String> console = new LinkedHashMap<>();
        console.put("Throughput over plaintext TCP, msgs/s: " + (o.repeats() == 1 ? "median (min–max) of "
            + o.seconds() + " one-second figures" : "median of " + o.repeats() + " runs' medians (each run's)"),
            throughput);
        console.put("Cores busy over the measured seconds (medians): a closed loop whose two sides both stay below"
            + " 90% was waiting, and its figure is not that stack's capacity", cores);
        console.put("Sluice / peer (medians)", ratios);
        console.put("Sluice RPC / peer (medians)", rpcRatios);
        console.put("Sluice with metrics / without (medians)", metricsRatios);
        console.put("Sluice RPC bridged to gRPC / the same service on grpc-java (medians)", bridgeRatios);
        console.put("Per transport, msgs/s: median (min–max), and · the median over plaintext TCP's", transports);
        console.put("With TLS on for every stack: Sluice / peer (medians)", tlsRatios);
        console.put("Latency at fixed offered rates (from each request's due time)",
            paced.isEmpty() ? "" : BenchReport.latencyTable(paced));
        console.put("Problems", problems);
        console.forEach((title, table) -> {
            if (!table.isEmpty()) {
                out.println();
                out.println(title);
                out.print(table);
            }
        });

        String context = BenchReport.context(machine, runner.jvmOptions(), o, command, when);
        if (transportRun) {
            MarkdownSections.write(o.out(), "Benchmarks", SECTION_TRANSPORTS, "### The last transport run\n\n" + context
                + "- Transports: " + String.join(", ", o.transports().stream().map(Transport::label).toList())
                + ".\n- " + TransportReport.setup(tlsProvider(o)) + "\n"
                + (transports.isEmpty() ? "" : "\nMessages per second, median (min–max), and · the median over the same"
                    + " cell's over plaintext TCP in this run, against the issue's targets for Sluice:\n\n"
                    + transports)
                + (tlsRatios.isEmpty() ? "" : "\nWith TLS on for every stack, Sluice's median over each peer's,"
                    + " against the issue's targets:\n\n" + tlsRatios)
                + (problems.isEmpty() ? "" : "\nProblems seen in this run:\n\n" + problems));
        } else {
            String body = "## Throughput\n\n" + context + "\n" + BenchReport.CONFIGURATIONS + "\n"
                + (o.repeats() == 1 ? "Messages per second, median (min–max):\n\n"
                    : "Messages per second, the median of each cell's " + o.repeats()
                        + " runs (each run's median):\n\n")
                + throughput
                + (cores.isEmpty() ? "" : "\nHow busy each side's one core was over the measured seconds (CPU time of"
                    + " the whole JVM over wall time; medians over runs). A closed loop whose two sides both stay"
                    + " below 90% was waiting on the requests in flight, not working: its figure is then not that"
                    + " stack's capacity, and a ratio against it flatters the other side (the ratios below say so"
                    + " where it happened).\n\n" + cores)
                + (ratios.isEmpty() ? "" : "\nSluice's median over each peer's, against the issue's targets:\n\n"
                    + ratios)
                + (rpcRatios.isEmpty() ? "" : "\nSluice RPC's median over grpc-java's with the same `.proto`, and over"
                    + " raw Sluice's on the same cell, against the issue's targets:\n\n" + rpcRatios)
                + (bridgeRatios.isEmpty() ? "" : "\nThe Sluice RPC service served to grpc-java clients through"
                    + " `GrpcBridge` over the same service written directly on grpc-java (same server configuration"
                    + " and client), against the issue's target:\n\n" + bridgeRatios)
                + (metricsRatios.isEmpty() ? "" : "\nSluice with metrics on (`sluice-micrometer`, a Prometheus"
                    + " registry) over Sluice without, on the same cell:\n\n" + metricsRatios)
                + (problems.isEmpty() ? "" : "\nProblems seen in this run:\n\n" + problems);
            MarkdownSections.write(o.out(), "Benchmarks", SECTION_THROUGHPUT, body);
        }
        if (!paced.isEmpty()) {
            String latency = "## Latency under load\n\n" + context + "- Offered rates: "
                + o.latencyPercents().stream().map(p -> p + "%").collect(Collectors.joining(", "))
                + " of each implementation's measured request-response median, open loop; response times from"
                + " each request's due time (no coordinated omission), HdrHistogram. Warm-up runs the closed loop"
                + " for its first quarter, then the paced load; the schedule starts again when measuring starts, so"
                + " no measured request waits behind one left over from warm-up."
                + (o.latencyRepeats() == 1 ? "" : " Each run made " + o.latencyRepeats() + " times, the runs in"
                    + " turn; each figure the median of those runs.") + "\n\n"
                + BenchReport.latencyTable(paced);
            MarkdownSections.write(o.out(), "Benchmarks", SECTION_LATENCY, latency);
        }
        out.println();
        out.println("Report written to " + o.out().toAbsolutePath()
            + (transportRun ? " (section \"" + SECTION_TRANSPORTS + "\")" : ""));
        boolean allOk = all.stream().allMatch(CellResult::ok);
        if (o.json()) {
            System.out.println(BenchJson.render(machine, when, command, allOk ? 0 : 1, o.out(), all));
            System.out.flush();
        }
        return allOk ? 0 : 1;
    }

    /**
     * Every selected cell an implementation implements over every selected transport it runs over, grouped by
     * interaction and size, a cell's transports one after the other (so that their ratios compare runs close in
     * time); prints what it skips and why.
     */
    static List<Cell> plan(BenchOptions o, PrintStream out) {
        List<Cell> cells = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Interaction interaction : o.interactions()) {
            for (int size : o.sizes()) {
                for (Impl impl : o.impls()) {
                    if (!impl.implementsInteraction(interaction)) {
                        if (size == o.sizes().get(0)) {
                            skipped.add(impl.label() + " " + interaction.label());
                        }
                        continue;
                    }
                    for (Transport t : o.transports()) {
                        if (impl.runsOver(t)) {
                            cells.add(Cell.max(impl, interaction, size, t));
                        }
                    }
                }
            }
        }
        if (!skipped.isEmpty()) {
            // grpc-java has no such interactions, and the floor only moves stream and request-response bytes.
            out.println("not in the comparison, skipped: " + String.join(", ", skipped));
        }
        List<String> notOver = new ArrayList<>();
        for (Impl impl : o.impls()) {
            List<String> missing = o.transports().stream().filter(t -> !impl.runsOver(t)).map(Transport::option)
                .toList();
            if (!missing.isEmpty()) {
                notOver.add(impl.label() + " over " + String.join(", ", missing) + " (its benchmark mains run "
                    + String.join(", ", impl.transports().stream().map(Transport::option).toList()) + ")");
            }
        }
        if (!notOver.isEmpty()) {
            out.println("cells skipped, transports a benchmark main does not offer: " + String.join("; ", notOver));
        }
        return cells;
    }

    /**
     * The latency runs: each request-response cell over TCP that finished at least once, at each percentage of its
     * median (over its finished runs, with {@code --repeats}).
     */
    static List<Cell> pacedCells(List<CellResult> results, List<Integer> percents) {
        Map<Cell, List<Double>> medians = new LinkedHashMap<>();
        for (CellResult r : results) {
            Cell c = r.cell();
            if (c.interaction() == Interaction.RESPONSE && c.transport() == Transport.TCP && r.ok()) {
                medians.computeIfAbsent(c, k -> new ArrayList<>()).add(r.summary().median());
            }
        }
        List<Cell> cells = new ArrayList<>();
        for (Map.Entry<Cell, List<Double>> e : medians.entrySet()) {
            Cell c = e.getKey();
            double median = BenchReport.median(e.getValue().stream().mapToDouble(Double::doubleValue).toArray());
            for (int p : percents) {
                long rate = Math.round(median * p / 100.0);
                if (rate > 0) {
                    cells.add(new Cell(c.impl(), c.interaction(), c.size(), rate, Transport.TCP));
                }
            }
        }
        return cells;
    }

    /** An I/O failure in one line: the file and the reason, which the JDK's own messages leave out. */
    static String ioMessage(IOException e) {
        if (e instanceof NoSuchFileException f) {
            return "cannot write " + f.getFile() + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException f) {
            return "cannot write " + f.getFile() + ": permission denied";
        }
        return e.getMessage();
    }

    /** The TLS provider of the benchmark JVMs: this JVM's, unless their options turn OpenSSL off. */
    private static String tlsProvider(BenchOptions o) {
        return o.jvmArgs().contains("-Dsluice.transport.noOpenSsl=true") ? "JDK" : TlsServer.provider();
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
