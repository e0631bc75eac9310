package dev.sluice.bench.throughput.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark server or client running as a child process, as the driver sees it: its standard output line by
 * line (also copied to {@code <stem>.out}), its standard error in {@code <stem>.err}. {@link #close()} ends it:
 * politely, then forcibly. Not thread-safe; one driver thread uses it.
 */
public final class ChildJvm implements AutoCloseable {

    /** What {@link #nextLine} returns once the process closed its output. */
    public static final String EOF = "\u0000eof";

    private final Process process;
    private final Path err;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(Process process, Path err) {
        this.process = process;
        this.err = err;
    }

    /** Starts {@code command}; its output goes to {@code <logs>/<stem>.out} and {@code .err}. */
    public static ChildJvm start(List<String> command, Path logs, String stem) throws IOException {
        Path out = logs.resolve(stem + ".out");
        Path err = logs.resolve(stem + ".err");
        Files.writeString(out, String.join(" ", command) + "\n", StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(command)
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
        ChildJvm child = new ChildJvm(p, err);
        Thread reader = new Thread(() -> child.pump(out), "bench-child-" + stem);
        reader.setDaemon(true);
        reader.start();
        return child;
    }

    private void pump(Path copy) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
             Writer w = Files.newBufferedWriter(copy, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                w.write(line);
                w.write('\n');
                w.flush();
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("error reading the child's output: " + e);
        } finally {
            lines.add(EOF);
        }
    }

    /** The next output line, {@link #EOF} once there are no more, or null if none came within the timeout. */
    public String nextLine(long timeout, TimeUnit unit) throws InterruptedException {
        return lines.poll(timeout, unit);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit status, waiting up to {@code seconds} for it; -1 if still running. */
    public int exitStatus(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    public long pid() {
        return process.pid();
    }

    /**
     * The CPU time the process has used so far, every thread's, in nanoseconds; -1 where the platform does not say
     * (Linux counts it in clock ticks of 10 ms).
     */
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** The file holding the process's standard error. */
    public Path errFile() {
        return err;
    }

    /** Standard-error lines containing any of {@code needles} (a Netty leak report, an exception...). */
    public List<String> errLinesContaining(String... needles) {
        List<String> found = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(err, StandardCharsets.UTF_8)) {
                for (String n : needles) {
                    if (line.contains(n)) {
                        found.add(line);
                        break;
                    }
                }
            }
        } catch (IOException e) {
            found.add("cannot read " + err + ": " + e);
        }
        return found;
    }

    /** The last {@code n} lines of standard error. */
    public List<String> errTail(int n) {
        try {
            List<String> all = Files.readAllLines(err, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - n), all.size());
        } catch (IOException e) {
            return List.of("cannot read " + err + ": " + e);
        }
    }

    /** Ends the process: SIGTERM, then SIGKILL after 5 s. */
    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
