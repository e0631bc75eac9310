package dev.sluice.bench.files;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Streams chunks to files with Sluice, rio 0.3, Vert.x {@code AsyncFile} and Spring {@code DataBufferUtils.write},
 * and with a plain {@code FileChannel} loop as the ceiling, in the shape of the greed paper's table: 1 KiB x 1000
 * files, 1 MiB x 100 files and one 100 MiB file per stream, at parallelism 1, 10 and 100. Reports MB/s (10^6
 * bytes/s; the median of the measured iterations) and the peak heap and direct memory of each, as Markdown tables.
 * Sluice's standing is given twice: the ratio of its median to the best peer's median, and the <em>paired</em>
 * figure, the lowest over the peers of the median per-round ratio (see {@link #paired}), which a drift of the file
 * system during the row does not bias, with its 95% confidence interval ({@link PairedRatio}).
 *
 * <h2>Method</h2>
 * Each target lives in a JVM of its own, started once with the same flags ({@code -Xms1g -Xmx1g -Xmn64m}, G1: the
 * young generation is fixed and small so that collections happen during a run and show what is retained), so that one's
 * JIT profile, threads and garbage do not bias another. The parent drives them row by row and iteration by
 * iteration, <em>interleaved</em>, so that noise from the machine (other processes, disk write-back) spreads over
 * all targets instead of landing on whichever ran at the wrong moment; the order within a round changes from round
 * to round so that no target is favoured by its place (see {@link RoundOrders}). Before every
 * measured iteration a child collects garbage and resets its memory peaks (sampled every millisecond); after it, it
 * checks the bytes on disk and deletes the files, so dirty pages do not pile up into later measurements (the small-file
 * rows keep theirs until the run ends: see {@link Workload}). Writes are
 * buffered (no fsync), as in the paper. The source emits as fast as demand allows; see {@link ChunkData} for the two
 * source modes.
 *
 * <p>Usage: {@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.files.FileWriteBenchmark
 * [--dir DIR] [--chunk BYTES] [--source copies|views] [--warmup N] [--iterations MIN] [--seconds S] [--full]
 * [--only a,b] [--rows 1k,1m,100m]}.
 * {@code --full} adds the 100 MiB row at parallelism 100 (10 GiB per iteration per target); without it that row is
 * skipped to keep a run within minutes. Targets: ceiling, sluice, rio, vertx, spring.
 */
public final class FileWriteBenchmark {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final int[] PARALLELISM = {1, 10, 100};
    /**
     * The most measured rounds of a row whose files are deleted after each iteration: enough for about ten seconds
     * per target on the 1 MiB rows (30-60 ms an iteration), whose per-round ratios spread by about 10% either way.
     */
    private static final int MAX_ITERATIONS = 250;
    /** The most measured rounds of a row that keeps its files: each round leaves 1000 files per target behind. */
    private static final int MAX_KEPT_ITERATIONS = 60;
    /** Rounds run so far in this run, all rows together: names each round's directory. */
    private static final AtomicInteger ROUNDS_RUN = new AtomicInteger();
    private static final List<String> TARGETS = List.of("ceiling", "sluice", "rio", "vertx", "spring");

    /**
     * A row family: files of {@code size} bytes; how many depends on the parallelism. With {@code keepFiles} the
     * files stay until the run ends. Why: ext4 does not reuse an inode within a minute (six, while its table block is
     * dirty) of its deletion, and its allocator reads the inode of every such free-but-recent inode it passes.
     * Deleting the thousand files of each iteration made the creates of the next ones scan tens of thousands of
     * them: 400-700 us per create instead of about 35, drifting with how much had been deleted in the last minutes,
     * whichever writer ran (perf: find_inode_bit, recently_deleted and find_get_block_common took two thirds of the
     * samples). Large rows still delete theirs after each iteration, so that dirty pages do not pile up; their few
     * creates cost little against the bytes. Every round writes into a directory of its own, shared by the
     * targets (where ext4 places a directory decides much of what creating files in it costs, so targets compared
     * in a round create theirs in the same one), spread by {@link #markTopDirectory}; kept files are synced after
     * each iteration ({@link #syncFileSystem}). The small-file rows still swing by up to ten times between runs on
     * our VM (the benchmarks document says more); compare targets within a run, by the paired figure.
     */
    private record Workload(String key, String label, long size, int files, boolean filePerStream,
            boolean keepFiles) {
        int files(int parallelism) {
            return filePerStream ? parallelism : files;
        }
    }

    private static final List<Workload> WORKLOADS = List.of(
            new Workload("1k", "1 KiB x 1000 files", KIB, 1000, false, true),
            new Workload("1m", "1 MiB x 100 files", MIB, 100, false, false),
            new Workload("100m", "100 MiB x p files", 100 * MIB, 0, true, false));

    /**
     * One target's figures on one row. {@code retainedAbove} is the most, over the iterations, of the heap in use
     * after a collection during the iteration minus the heap in use after the full collection before it: what the
     * writer kept alive, without the JVM's own live data (which differs by a MiB or so between the targets' JVMs,
     * whose libraries load different classes). {@code paired} (Sluice's row only, else null) is, of the peers,
     * the one with the lowest median per-round ratio of Sluice's MB/s to the peer's: that median and its interval.
     */
    private record Result(String target, Workload workload, int parallelism, double mbps, long retainedAbove,
            long heap, long direct, PairedRatio paired) {
    }

    private FileWriteBenchmark() {
    }

    private static final String USAGE = "Usage: java -cp sluice-bench/target/benchmarks.jar"
        + " dev.sluice.bench.files.FileWriteBenchmark [--dir DIR] [--chunk BYTES] [--source copies|views]"
        + " [--warmup N] [--iterations MIN] [--seconds S] [--full] [--only a,b] [--rows 1k,1m,100m]\n"
        + "Targets: ceiling, sluice, rio, vertx, spring. Rows: 1k, 1m, 100m (all by default). --full adds the"
        + " 100 MiB row at parallelism 100.";

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.println(USAGE);
            return;
        }
        Map<String, String> opts;
        try {
            opts = parse(args);
            validate(opts);
        } catch (IllegalArgumentException e) {
            System.err.println("FileWriteBenchmark: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Path dir = Path.of(opts.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/sluice-file-bench"));
        int chunk = Integer.parseInt(opts.getOrDefault("chunk", String.valueOf(64 * KIB)));
        String source = opts.getOrDefault("source", "copies");
        if (opts.containsKey("child")) {
            serve(opts.get("child"), dir, new ChunkData(chunk, source.equals("copies")));
            System.exit(0); // rio's shared executor has non-daemon threads
        }
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "1"));
        int iterations = Integer.parseInt(opts.getOrDefault("iterations", "5"));
        double seconds = Double.parseDouble(opts.getOrDefault("seconds", "2"));
        boolean full = opts.containsKey("full");
        List<String> targets = opts.containsKey("only") ? Arrays.asList(opts.get("only").split(",")) : TARGETS;
        List<String> rows = Arrays.asList(opts.getOrDefault("rows", "1k,1m,100m").split(","));
        long start = System.nanoTime();
        List<Child> children = new ArrayList<>();
        Files.createDirectories(dir);
        markTopDirectory(dir);
        try {
            for (String t : targets) {
                children.add(new Child(t, args));
            }
            List<Result> results = new ArrayList<>();
            for (Workload w : WORKLOADS) {
                if (!rows.contains(w.key())) {
                    continue;
                }
                for (int p : PARALLELISM) {
                    if (w.filePerStream() && p == 100 && !full) {
                        continue;
                    }
                    results.addAll(row(children, w, p, warmup, iterations, seconds));
                }
            }
            Map<String, String> names = new LinkedHashMap<>();
            children.forEach(c -> names.put(c.target, c.name));
            String header = String.format(Locale.ROOT, "Source: %s; chunks of %d bytes; %d warm-up + %d to %d "
                    + "measured iterations per row (%d where files are kept; about %.0f s per target), targets "
                    + "interleaved; %d CPUs; %s %s; files under %s; %.0f s in all.%n",
                    source, chunk, warmup, iterations, MAX_ITERATIONS, MAX_KEPT_ITERATIONS, seconds,
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name"), System.getProperty("java.version"), dir,
                    (System.nanoTime() - start) / 1e9);
            System.out.println(header + (full ? "" : "The 100 MiB row at p = 100 (10 GiB per iteration per "
                    + "target) was skipped; --full runs it.\n") + tables(results, targets, names));
        } finally {
            for (Child c : children) {
                c.close();
            }
            // Hundreds of thousands of small files with --rows 1k: say why the end takes a while.
            System.err.println("removing the files under " + dir);
            deleteRecursively(dir);
        }
    }

    /**
     * Asks ext4 to treat {@code dir} as the top of a directory tree ({@code chattr +T}), so that its allocator
     * spreads the subdirectories over the disk's block groups as it does top-level directories, rather than next
     * to their parent, where the previous run freed its inodes (see {@link Workload}). In one process right after
     * such a deletion, creating a file took 715 us under a plain directory and 31 us under a marked one. Best
     * effort: on other file systems, or without {@code chattr}, a note says so.
     */
    private static void markTopDirectory(Path dir) {
        String failure;
        try {
            Process chattr = new ProcessBuilder("chattr", "+T", dir.toString()).redirectErrorStream(true).start();
            String output = new String(chattr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (chattr.waitFor() == 0) {
                return;
            }
            failure = output;
        } catch (IOException e) {
            failure = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
        System.err.println("note: could not mark " + dir + " as a top directory (chattr +T: " + failure
                + "); on ext4, files created soon after many deletions nearby are much slower to create");
    }

    /** Checks the values of the options, so that a mistake is reported before any child starts. */
    private static void validate(Map<String, String> opts) {
        String source = opts.getOrDefault("source", "copies");
        if (!source.equals("copies") && !source.equals("views")) {
            throw new IllegalArgumentException("--source is copies or views: " + source);
        }
        for (String t : opts.getOrDefault("only", String.join(",", TARGETS)).split(",")) {
            if (!TARGETS.contains(t)) {
                throw new IllegalArgumentException("--only: unknown target " + t + " (one of " + TARGETS + ")");
            }
        }
        for (String r : opts.getOrDefault("rows", "1k").split(",")) {
            if (WORKLOADS.stream().noneMatch(w -> w.key().equals(r))) {
                throw new IllegalArgumentException("--rows: unknown row " + r + " (1k, 1m or 100m)");
            }
        }
        for (String key : List.of("chunk", "warmup", "iterations", "seconds")) {
            String value = opts.get(key);
            if (value == null) {
                continue;
            }
            double least = key.equals("warmup") ? 0 : key.equals("seconds") ? Double.MIN_VALUE : 1;
            double number;
            try {
                number = key.equals("seconds") ? Double.parseDouble(value) : Integer.parseInt(value);
            } catch (NumberFormatException e) {
                number = Double.NaN;
            }
            if (!(number >= least)) {
                throw new IllegalArgumentException("--" + key + " must be a number " + (key.equals("seconds")
                        ? "> 0" : ">= " + (int) least) + ": " + value);
            }
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("not an option: " + args[i]);
            }
            String key = args[i].substring(2);
            if (key.equals("full")) {
                opts.put(key, "true");
            } else if (i + 1 < args.length) {
                opts.put(key, args[++i]);
            } else {
                throw new IllegalArgumentException("option without a value: " + args[i]);
            }
        }
        return opts;
    }

    /**
     * One row: warm-up rounds, then measured rounds, each round running every target once, in the orders of {@link
     * RoundOrders}. A row whose iterations are short gets more measured rounds (about {@code seconds} of measurement
     * per target, at least {@code iterations}, at most {@value #MAX_ITERATIONS}, or {@value #MAX_KEPT_ITERATIONS}
     * for a row that keeps its files, in each case rounded up to whole cycles of orders), so that its median is not
     * one unlucky moment.
     */
    private static List<Result> row(List<Child> children, Workload w, int p, int warmup, int iterations,
            double seconds) throws IOException {
        int index = WORKLOADS.indexOf(w);
        Map<Child, List<long[]>> samples = new LinkedHashMap<>();
        // The slowest target's time in the last warm-up round: the earlier ones run cold (JIT, first files).
        long slowestWarmup = 0;
        RoundOrders orders = new RoundOrders(children.size());
        int rounds = warmup + roundUp(iterations, orders.cycle());
        for (int round = 0; round < rounds; round++) {
            boolean measured = round >= warmup;
            // One directory per round, shared by the targets: where ext4 puts a directory decides much of what
            // creating files in it costs, so targets compared within a round must create theirs in the same one.
            String roundDir = "round-" + ROUNDS_RUN.getAndIncrement();
            int[] order = orders.order(round - warmup);
            for (int k = 0; k < order.length; k++) {
                Child c = children.get(order[k]);
                // The run's figures, and where the target ran in the round.
                long[] s = Arrays.copyOf(c.run(index, p, measured, roundDir), 6);
                s[5] = k;
                if (measured) {
                    samples.computeIfAbsent(c, x -> new ArrayList<>()).add(s);
                } else if (round == warmup - 1) {
                    slowestWarmup = Math.max(slowestWarmup, s[0]);
                }
            }
            if (round == warmup - 1) {
                int wanted = (int) Math.ceil(seconds * 1e9 / Math.max(1, slowestWarmup));
                int most = w.keepFiles() ? MAX_KEPT_ITERATIONS : MAX_ITERATIONS;
                // Whole cycles of orders, so that every target runs as often in each place of a round.
                rounds = warmup + roundUp(Math.min(most, Math.max(iterations, wanted)), orders.cycle());
            }
        }
        List<Result> out = new ArrayList<>();
        for (Map.Entry<Child, List<long[]>> e : samples.entrySet()) {
            double[] mbps = e.getValue().stream().mapToDouble(s -> w.files(p) * w.size() / (s[0] / 1e9) / 1e6)
                    .sorted().toArray();
            long retained = e.getValue().stream().mapToLong(s -> s[1]).max().orElse(0);
            long retainedAbove = e.getValue().stream().mapToLong(s -> Math.max(0, s[1] - s[4])).max().orElse(0);
            long heap = e.getValue().stream().mapToLong(s -> s[2]).max().orElse(0);
            long direct = e.getValue().stream().mapToLong(s -> s[3]).max().orElse(0);
            PairedRatio paired = e.getKey().target.equals("sluice") ? paired(e.getValue(), samples, w, p) : null;
            out.add(new Result(e.getKey().target, w, p, mbps[mbps.length / 2], retainedAbove, heap, direct,
                    paired));
            System.err.printf(Locale.ROOT,
                    "%-8s %-20s p=%-3d MB/s %s retained %d (%.1f above baseline) heap %d direct %d MiB%n",
                    e.getKey().target, w.label(), p,
                    Arrays.toString(Arrays.stream(mbps).map(m -> Math.round(m * 10) / 10.0).toArray()),
                    retained / MIB, retainedAbove / (double) MIB, heap / MIB, direct / MIB);
        }
        return out;
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }

    /**
     * Sluice against each peer, round by round: the ratio of their times in the same round (the same bytes, run
     * back to back), whose median is robust to the file system's slow drifts, which move every target of a round
     * alike. Prints each peer's median, its confidence interval and quartiles; returns the one with the lowest median
     * (null without a peer).
     */
    private static PairedRatio paired(List<long[]> ours, Map<Child, List<long[]>> samples, Workload w, int p) {
        PairedRatio lowest = null;
        for (Map.Entry<Child, List<long[]>> e : samples.entrySet()) {
            String peer = e.getKey().target;
            if (peer.equals("sluice") || peer.equals("ceiling")) {
                continue;
            }
            List<long[]> theirs = e.getValue();
            int n = Math.min(ours.size(), theirs.size());
            double[] ratios = new double[n];
            for (int r = 0; r < n; r++) {
                ratios[r] = (double) theirs.get(r)[0] / ours.get(r)[0];
            }
            PairedRatio ratio = PairedRatio.of(ratios);
            // The same split by which of the two ran first in the round: how much the place in a round weighs.
            double[] first = new double[n];
            double[] second = new double[n];
            int ranFirst = 0;
            int ranSecond = 0;
            for (int r = 0; r < n; r++) {
                if (ours.get(r)[5] < theirs.get(r)[5]) {
                    first[ranFirst++] = ratios[r];
                } else {
                    second[ranSecond++] = ratios[r];
                }
            }
            Arrays.sort(ratios);
            System.err.printf(Locale.ROOT, "sluice / %-6s %-20s p=%-3d per-round ratio median %s; quartiles %.3f,"
                    + " %.3f; %s where Sluice ran first, %s where it ran second%n",
                    peer, w.label(), p, ratio, ratios[n / 4], ratios[(3 * n) / 4], medianOf(first, ranFirst),
                    medianOf(second, ranSecond));
            if (lowest == null || ratio.median() < lowest.median()) {
                lowest = ratio;
            }
        }
        return lowest;
    }

    /** The median of the first {@code n} values and their count, for a report line. */
    private static String medianOf(double[] values, int n) {
        return n == 0 ? "no round" : String.format(Locale.ROOT, "%.3f in the %d",
                PairedRatio.median(Arrays.copyOf(values, n)), n);
    }

    /** A target's JVM, driven over its standard input and output. */
    private static final class Child implements AutoCloseable {
        final String target;
        final String name;
        private final Process process;
        private final Writer in;
        private final BufferedReader out;

        Child(String target, String[] args) throws IOException {
            this.target = target;
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xms1g", "-Xmx1g", "-Xmn64m", "-XX:+UseG1GC", "-XX:MaxDirectMemorySize=1g",
                    "-Dio.netty.leakDetection.level=disabled"));
            // Settings such as -Dsluice.files.threads reach the children.
            System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("sluice.")).sorted()
                    .forEach(k -> command.add("-D" + k + "=" + System.getProperty(k)));
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), FileWriteBenchmark.class.getName()));
            command.addAll(Arrays.asList(args));
            command.addAll(List.of("--child", target));
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            name = expect("NAME ");
        }

        /**
         * Runs one iteration; returns {nanos, peak retained heap, peak heap in use, peak direct, retained baseline}.
         */
        long[] run(int workload, int parallelism, boolean measured, String roundDir) throws IOException {
            in.write("RUN " + workload + " " + parallelism + " " + measured + " " + roundDir + "\n");
            in.flush();
            return Arrays.stream(expect("DONE ").split(" ")).mapToLong(Long::parseLong).toArray();
        }

        private String expect(String prefix) throws IOException {
            String line = out.readLine();
            if (line == null || !line.startsWith(prefix)) {
                throw new IllegalStateException(target + ": expected " + prefix.trim() + ", got " + line);
            }
            return line.substring(prefix.length());
        }

        @Override
        public void close() throws IOException {
            try {
                in.write("EXIT\n");
                in.flush();
            } catch (IOException e) {
                // already gone
            }
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroy();
            }
        }
    }

    /** The child side: one target, runs what the parent asks, answers on standard output. */
    private static void serve(String name, Path dir, ChunkData data) throws IOException {
        PrintStream out = System.out;
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (WriteTarget target = create(name, data); MemorySampler memory = new MemorySampler()) {
            out.println("NAME " + target.name());
            out.flush();
            int prepared = -1;
            for (String line; (line = commands.readLine()) != null && !line.equals("EXIT"); ) {
                String[] f = line.split(" ");
                Workload w = WORKLOADS.get(Integer.parseInt(f[1]));
                int p = Integer.parseInt(f[2]);
                if (p != prepared) {
                    target.prepare(p);
                    prepared = p;
                }
                // The round's directory, right under the top directory: see markTopDirectory.
                Path roundDir = Files.createDirectories(dir.resolve(f[4]));
                if (Boolean.parseBoolean(f[3])) {
                    System.gc();
                    memory.reset();
                }
                long nanos = runOnce(target, roundDir, name + "-", w, p);
                out.println("DONE " + nanos + " " + memory.peakRetained() + " " + memory.peakHeap() + " "
                        + memory.peakDirect() + " " + memory.baseline());
                out.flush();
            }
        }
    }

    private static WriteTarget create(String name, ChunkData data) {
        switch (name) {
            case "ceiling":
                return new FileChannelTarget(data);
            case "sluice":
                return new SluiceTarget(data);
            case "rio":
                return new RioTarget(data);
            case "vertx":
                return new VertxTarget(data);
            case "spring":
                return new SpringTarget(data);
            default:
                throw new IllegalArgumentException("unknown target: " + name + " (one of " + TARGETS + ")");
        }
    }

    /**
     * Writes the row's files into {@code roundDir}, {@code p} at a time, named {@code prefix} and a number; checks
     * them and deletes them unless the row keeps its files; returns the time taken in nanos.
     */
    private static long runOnce(WriteTarget target, Path roundDir, String prefix, Workload w, int p)
            throws IOException {
        int files = w.files(p);
        long start = System.nanoTime();
        Flux.range(0, files)
                .flatMap(i -> Mono.fromCompletionStage(() -> target.write(roundDir.resolve(prefix + i), w.size())),
                        p, 1)
                .then()
                .block();
        long nanos = System.nanoTime() - start;
        long expected = files * w.size();
        List<Path> written;
        try (Stream<Path> paths = Files.list(roundDir)) {
            written = paths.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
        }
        long actual = written.stream().mapToLong(FileWriteBenchmark::size).sum();
        if (actual != expected) {
            throw new IllegalStateException(target.name() + " wrote " + actual + " bytes, expected " + expected);
        }
        if (w.keepFiles()) {
            syncFileSystem(roundDir);
        } else {
            for (Path f : written) {
                Files.delete(f);
            }
        }
        return nanos;
    }

    /**
     * Writes the file system's dirty data and metadata back now ({@code sync -f}, i.e. syncfs), between iterations,
     * so that the write-back of the files a row keeps does not run during a later iteration: it holds the inode
     * tables' and bitmaps' buffers that the creates need. Best effort: without {@code sync}, nothing happens.
     */
    private static void syncFileSystem(Path inside) {
        try {
            // Not inheritIO: a child's standard output is its channel to the parent.
            new ProcessBuilder("sync", "-f", inside.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start().waitFor();
        } catch (IOException e) {
            // no sync(1): the kernel's own write-back still runs, at its own times
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String tables(List<Result> results, List<String> targets, Map<String, String> names) {
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
        for (Workload w : WORKLOADS) {
            for (int p : PARALLELISM) {
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
