package dev.sluice.bench.files;

import dev.sluice.bench.files.FileWriteReport.Result;
import java.io.IOException;
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
import java.util.stream.Stream;

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
    static final long MIB = 1024 * KIB;
    static final int[] PARALLELISM = {1, 10, 100};
    /**
     * The most measured rounds of a row whose files are deleted after each iteration: enough for about ten seconds
     * per target on the 1 MiB rows (30-60 ms an iteration), whose per-round ratios spread by about 10% either way.
     */
    private static final int MAX_ITERATIONS = 250;
    /** The most measured rounds of a row that keeps its files: each round leaves 1000 files per target behind. */
    private static final int MAX_KEPT_ITERATIONS = 60;
    /** Rounds run so far in this run, all rows together: names each round's directory. */
    private static final AtomicInteger ROUNDS_RUN = new AtomicInteger();
    static final List<String> TARGETS = List.of("ceiling", "sluice", "rio", "vertx", "spring");

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
     * each iteration ({@link TargetJvm#syncFileSystem}). The small-file rows still swing by up to ten times between
     * runs on our VM (the benchmarks document says more); compare targets within a run, by the paired figure.
     */
    record Workload(String key, String label, long size, int files, boolean filePerStream,
            boolean keepFiles) {
        int files(int parallelism) {
            return filePerStream ? parallelism : files;
        }
    }

    static final List<Workload> WORKLOADS = List.of(
            new Workload("1k", "1 KiB x 1000 files", KIB, 1000, false, true),
            new Workload("1m", "1 MiB x 100 files", MIB, 100, false, false),
            new Workload("100m", "100 MiB x p files", 100 * MIB, 0, true, false));

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
            TargetJvm.serve(opts.get("child"), dir, new ChunkData(chunk, source.equals("copies")));
            System.exit(0); // rio's shared executor has non-daemon threads
        }
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "1"));
        int iterations = Integer.parseInt(opts.getOrDefault("iterations", "5"));
        double seconds = Double.parseDouble(opts.getOrDefault("seconds", "2"));
        boolean full = opts.containsKey("full");
        List<String> targets = opts.containsKey("only") ? Arrays.asList(opts.get("only").split(",")) : TARGETS;
        List<String> rows = Arrays.asList(opts.getOrDefault("rows", "1k,1m,100m").split(","));
        long start = System.nanoTime();
        List<TargetJvm> children = new ArrayList<>();
        Files.createDirectories(dir);
        markTopDirectory(dir);
        try {
            for (String t : targets) {
                children.add(new TargetJvm(t, args));
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
                    + "target) was skipped; --full runs it.\n") + FileWriteReport.tables(results, targets, names));
        } finally {
            for (TargetJvm c : children) {
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
    static void markTopDirectory(Path dir) {
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
    private static List<Result> row(List<TargetJvm> children, Workload w, int p, int warmup, int iterations,
            double seconds) throws IOException {
        int index = WORKLOADS.indexOf(w);
        Map<TargetJvm, List<long[]>> samples = new LinkedHashMap<>();
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
                TargetJvm c = children.get(order[k]);
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
        for (Map.Entry<TargetJvm, List<long[]>> e : samples.entrySet()) {
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
    private static PairedRatio paired(List<long[]> ours, Map<TargetJvm, List<long[]>> samples, Workload w, int p) {
        PairedRatio lowest = null;
        for (Map.Entry<TargetJvm, List<long[]>> e : samples.entrySet()) {
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
}
