package dev.sluice.bench.files;

import dev.sluice.bench.files.FileWriteBenchmark.Workload;
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
import java.util.List;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A target's JVM in {@link FileWriteBenchmark}, both ends of it: the parent's handle, which starts it and drives it
 * over its standard input and output, and the child's side ({@link #serve}), which runs what the parent asks. The
 * child is the benchmark's own main with the parent's arguments and {@code --child TARGET}; it answers {@code NAME},
 * then each {@code RUN} (one iteration of a row) with {@code DONE} and its figures, until {@code EXIT}.
 */
final class TargetJvm implements AutoCloseable {

    final String target;
    final String name;
    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    TargetJvm(String target, String[] args) throws IOException {
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

    /** The child side: one target, runs what the parent asks, answers on standard output. */
    static void serve(String name, Path dir, ChunkData data) throws IOException {
        PrintStream out = System.out;
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (WriteTarget target = create(name, data); MemorySampler memory = new MemorySampler()) {
            out.println("NAME " + target.name());
            out.flush();
            int prepared = -1;
            for (String line; (line = commands.readLine()) != null && !line.equals("EXIT"); ) {
                String[] f = line.split(" ");
                Workload w = FileWriteBenchmark.WORKLOADS.get(Integer.parseInt(f[1]));
                int p = Integer.parseInt(f[2]);
                if (p != prepared) {
                    target.prepare(p);
                    prepared = p;
                }
                // The round's directory, right under the top directory: see FileWriteBenchmark.markTopDirectory.
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
                throw new IllegalArgumentException("unknown target: " + name + " (one of " + FileWriteBenchmark.TARGETS
                        + ")");
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
        long actual = written.stream().mapToLong(TargetJvm::size).sum();
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
}
