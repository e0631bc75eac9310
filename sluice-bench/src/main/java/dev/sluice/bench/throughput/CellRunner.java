package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one cell: the server JVM pinned to one core, waits for its {@code ready <port>}, the client JVM pinned to
 * the other, reads the client's per-second lines (printing progress) until {@code done}, then ends both and looks
 * for leak reports and exceptions in their output. Failures of a cell are reported in its result, not thrown.
 * TLS cells get the run's certificate directory, Unix socket cells a new socket file in the run's socket directory
 * (removed after the cell: a killed server leaves it behind).
 */
final class CellRunner {

    /**
     * Options every benchmark JVM gets, before the heap and any {@code --jvm-arg}. Two of them take warm-up
     * effects out of the measured seconds, which otherwise charged only the stacks that allocate per request
     * (all but the raw-Netty floor), the more so the less they allocate:
     * <ul>
     *   <li>{@code AlwaysPreTouch}: the heap is touched at start; otherwise the first young collections each fault
     *   in fresh pages and pause 7-9 ms instead of 0.3.</li>
     *   <li>{@code MaxTenuringThreshold=1}: what survives one young collection moves to the old generation. A
     *   server that allocates little collects about five times in a 25 s warm-up, and kept copying its start-up
     *   objects (5 MB) between the survivor spaces at each: 4-7 ms pauses, where a long-running server has long
     *   since tenured them (then 0.3-0.4 ms). A request's objects live microseconds: the few in flight at a
     *   collection are all it promotes.</li>
     * </ul>
     * Measured on Sluice's request-response 4 B at 50% load, p99: at 15 s warm-up 15-18 ms without pre-touch and
     * 3.8-4.1 ms with it; at 25 s, 1.0-4.0 ms with pre-touch alone and 1.3-2.3 ms with both (three runs each).
     */
    static final List<String> JVM_FLAGS = List.of("-XX:ActiveProcessorCount=1", "-XX:+UseParallelGC",
        "-XX:+AlwaysPreTouch", "-XX:MaxTenuringThreshold=1", "-Dio.netty.leakDetection.level=disabled",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    /** What, in a JVM's standard error, makes a warning in the report: leak reports, exceptions, log warnings. */
    private static final String[] WARNING_MARKERS = {"LEAK:", "Exception", "ERROR", "WARN"};

    private static final long READY_TIMEOUT_SECONDS = 60;
    /** Beyond warm-up and measurement: JVM start, connect, and the last line. */
    private static final long CLIENT_GRACE_SECONDS = 60;

    private final BenchOptions options;
    private final Path logs;
    private final String java;
    private final String classpath;
    private final PrintStream progress;
    private final RunFiles files;
    /** Runs made so far of each cell, so that a repeated cell's logs do not overwrite its earlier runs'. */
    private final Map<Cell, Integer> runsOf = new HashMap<>();
    private int sockets;

    /**
     * The directories a run's TLS and Unix socket cells use, null where the run has none; {@code namesTcp}: whether
     * progress lines name plaintext TCP too (in a run of several transports).
     */
    record RunFiles(Path tls, Path sockets, boolean namesTcp) {
    }

    CellRunner(BenchOptions options, Path logs, String java, String classpath, PrintStream progress, RunFiles files) {
        this.options = options;
        this.logs = logs;
        this.java = java;
        this.classpath = classpath;
        this.progress = progress;
        this.files = files;
    }

    /** The JVM options of every server and client, as the report quotes them. */
    List<String> jvmOptions() {
        List<String> flags = new ArrayList<>(JVM_FLAGS);
        flags.add("-Xms" + options.heap());
        flags.add("-Xmx" + options.heap());
        flags.addAll(options.jvmArgs());
        return flags;
    }

    CellResult run(Cell cell, String position) throws InterruptedException {
        int run = runsOf.merge(cell, 1, Integer::sum);
        String stem = cell.fileStem() + (run == 1 ? "" : "-run" + run);
        long maxSeconds = options.warmupSeconds() + options.seconds() + CLIENT_GRACE_SECONDS + READY_TIMEOUT_SECONDS;
        String parent = Long.toString(ProcessHandle.current().pid());
        String label = label(cell);
        Path socket = null;
        List<String> transportArgs = new ArrayList<>();
        switch (cell.transport()) {
            case TCP -> { }
            case TLS -> transportArgs.addAll(List.of("--transport", "tls", "--tls", files.tls().toString()));
            case UNIX -> {
                socket = files.sockets().resolve("cell" + ++sockets + ".sock");
                transportArgs.addAll(List.of("--transport", "unix", "--unix-path", socket.toString()));
            }
            case WS -> transportArgs.addAll(List.of("--transport", "ws"));
            default -> throw new IllegalStateException("no arguments for transport " + cell.transport());
        }
        List<String> serverArgs = new ArrayList<>(List.of("--port", "0", "--interaction", cell.interaction().option(),
            "--size", Integer.toString(cell.size()), "--parent-pid", parent, "--max-seconds",
            Long.toString(maxSeconds + 30)));
        serverArgs.addAll(transportArgs);
        progress.printf("%s %s: starting the server on cpu %d%n", position, label, options.serverCpu());
        List<Long> figures = new ArrayList<>();
        LatencyFigures latency = null;
        CoreShares.Meter cores = null;
        String failure = null;
        ChildJvm server = null;
        ChildJvm client = null;
        try {
            server = ChildJvm.start(command(options.serverCpu(), cell.impl().serverMain(), serverArgs), logs,
                stem + "-server");
            int port = awaitReady(server);
            List<String> clientArgs = new ArrayList<>(transportArgs);
            clientArgs.addAll(List.of("--port", Integer.toString(port),
                "--interaction", cell.interaction().option(), "--size", Integer.toString(cell.size()),
                "--warmup", Integer.toString(options.warmupSeconds()),
                "--seconds", Integer.toString(options.seconds()),
                "--window", Integer.toString(options.window()), "--demand", Integer.toString(options.demand()),
                "--parent-pid", parent, "--max-seconds", Long.toString(maxSeconds)));
            if (cell.paced()) {
                clientArgs.addAll(List.of("--rate", Long.toString(cell.rate()), "--max-in-flight",
                    Integer.toString(options.pacedMaxInFlight())));
            }
            progress.printf("%s %s: server ready on %s; client on cpu %d, warming up for %d s%n", position,
                label, socket != null ? socket : "port " + port, options.clientCpu(), options.warmupSeconds());
            client = ChildJvm.start(command(options.clientCpu(), cell.impl().clientMain(), clientArgs), logs,
                stem + "-client");
            cores = new CoreShares.Meter(server::cpuNanos, client::cpuNanos, System::nanoTime);
            latency = readClient(client, server, cell, label, position, figures, cores);
        } catch (CellFailure | IOException e) {
            failure = e.getMessage();
            progress.printf("%s %s: FAILED: %s%n", position, label, failure);
        } finally {
            if (client != null) {
                client.close();
            }
            if (server != null) {
                server.close();
            }
            if (socket != null) {
                try {
                    Files.deleteIfExists(socket);
                } catch (IOException e) {
                    progress.printf("%s %s: cannot remove %s: %s%n", position, label, socket, e.getMessage());
                }
            }
        }
        // After both ended, so that what they logged on the way out counts too.
        List<String> warnings = new ArrayList<>();
        for (ChildJvm jvm : new ChildJvm[] {server, client}) {
            if (jvm == null) {
                continue;
            }
            String role = jvm == server ? "server" : "client";
            for (String line : jvm.errLinesContaining(WARNING_MARKERS)) {
                warnings.add(role + ": " + line.trim());
            }
            if (failure != null) {
                for (String line : jvm.errTail(15)) {
                    progress.println("    " + role + " stderr| " + line);
                }
            }
        }
        if (!warnings.isEmpty()) {
            progress.printf("%s %s: %d warning line(s) in the JVMs' output (logs: %s)%n", position, label,
                warnings.size(), logs);
        }
        CellResult result = new CellResult(cell, figures, latency, failure, List.copyOf(warnings),
            failure == null && cores != null ? cores.shares() : null);
        if (result.ok()) {
            // A long run's reader sees each cell's figure as it ends, not only in the tables at the end.
            progress.printf("%s %s: done, median %s%s%n", position, label, BenchReport.cellText(result),
                result.cores() == null ? "" : "; cores busy: " + result.cores().text());
        }
        return result;
    }

    /** The cell's label for progress lines: with {@code over TCP} too when the run has several transports. */
    private String label(Cell cell) {
        return cell.label() + (files.namesTcp() && cell.transport() == Transport.TCP ? " over TCP" : "");
    }

    private List<String> command(int cpu, String main, List<String> args) {
        List<String> c = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu), java));
        c.addAll(jvmOptions());
        c.addAll(List.of("-cp", classpath, main));
        c.addAll(args);
        return c;
    }

    private int awaitReady(ChildJvm server) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_SECONDS);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : server.nextLine(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new CellFailure("the server did not print 'ready <port>' within " + READY_TIMEOUT_SECONDS
                    + " s (log: " + server.errFile() + ")");
            }
            if (line.equals(ChildJvm.EOF)) {
                throw new CellFailure("the server exited before it was ready, status " + server.exitStatus(5)
                    + " (log: " + server.errFile() + ")");
            }
            if (line.startsWith("error ")) {
                throw new CellFailure("the server failed: " + line.substring(6));
            }
            if (line.startsWith("ready ")) {
                try {
                    return Integer.parseInt(line.substring(6).trim());
                } catch (NumberFormatException e) {
                    throw new CellFailure("the server printed a malformed ready line: '" + line + "'");
                }
            }
        }
    }

    private LatencyFigures readClient(ChildJvm client, ChildJvm server, Cell cell, String label, String position,
            List<Long> figures, CoreShares.Meter cores) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.warmupSeconds() + options.seconds()
            + CLIENT_GRACE_SECONDS);
        LatencyFigures latency = null;
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : client.nextLine(Math.min(left, TimeUnit.SECONDS.toNanos(5)),
                TimeUnit.NANOSECONDS);
            if (line == null && left > 0) {
                if (!server.isAlive()) {
                    throw new CellFailure("the server exited, status " + server.exitStatus(5));
                }
                continue;
            }
            if (line == null) {
                throw new CellFailure("the client did not finish in time (log: " + client.errFile() + ")");
            }
            if (line.equals(ChildJvm.EOF)) {
                throw new CellFailure("the client exited without finishing, status " + client.exitStatus(5)
                    + " (log: " + client.errFile() + ")");
            }
            String[] parts = line.split(" ");
            switch (parts[0]) {
                case "warmup" -> progress.printf("%s %s: warm-up %s/%d: %s%s%n", position, label, parts[1],
                    options.warmupSeconds(), rate(parts[2]), p99(parts));
                case "tick" -> {
                    cores.second();
                    figures.add(Long.parseLong(parts[2]));
                    progress.printf("%s %s: second %s/%d: %s%s%n", position, label, parts[1],
                        options.seconds(), rate(parts[2]), p99(parts));
                }
                case "latency" -> latency = LatencyFigures.parse(line.substring("latency".length()));
                case "error" -> throw new CellFailure("the client failed: " + line.substring(6));
                case "done" -> {
                    if (!server.isAlive()) {
                        throw new CellFailure("the server exited during the run, status " + server.exitStatus(5));
                    }
                    if (figures.size() != options.seconds()) {
                        throw new CellFailure("the client reported " + figures.size() + " figures, expected "
                            + options.seconds());
                    }
                    if (cell.paced() && latency == null) {
                        throw new CellFailure("the paced client reported no latency");
                    }
                    return latency;
                }
                default -> progress.printf("%s %s: client: %s%n", position, label, line);
            }
        }
    }

    private static String rate(String perSecond) {
        return String.format(Locale.ROOT, "%,d msgs/s", Long.parseLong(perSecond));
    }

    /** A paced second's p99 ({@code p99=<µs>}, the fourth word of its line) as shown in progress, or nothing. */
    private static String p99(String[] parts) {
        if (parts.length < 4 || !parts[3].startsWith("p99=")) {
            return "";
        }
        return String.format(Locale.ROOT, ", p99 %.2f ms", Double.parseDouble(parts[3].substring(4)) / 1000);
    }

    /** Why a cell stopped. */
    private static final class CellFailure extends RuntimeException {
        CellFailure(String message) {
            super(message, null, false, false);
        }
    }
}
