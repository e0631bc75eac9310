package dev.sluice.bench.throughput.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A temporary directory that a run owns and removes with everything in it: at {@link #close()}, or when the JVM
 * exits first (a shutdown hook: the driver ends with {@code System.exit}, and a Ctrl-C runs the hooks too). Readable
 * by its owner only, since it may hold a private key. Not thread-safe.
 */
public final class ScratchDir implements AutoCloseable {

    private final Path path;
    private final Thread hook;
    private boolean closed;

    private ScratchDir(Path path) {
        this.path = path;
        this.hook = new Thread(() -> {
            try {
                delete();
            } catch (UncheckedIOException e) {
                System.err.println("bench: " + e.getMessage());
            }
        }, "sluice-bench-cleanup");
    }

    /** A new directory {@code <java.io.tmpdir>/<prefix><random>}, mode {@code rwx------}. */
    public static ScratchDir create(String prefix) throws IOException {
        ScratchDir dir = new ScratchDir(Files.createTempDirectory(prefix,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        Runtime.getRuntime().addShutdownHook(dir.hook);
        return dir;
    }

    public Path path() {
        return path;
    }

    /** Removes the directory and its contents now. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is exiting: the hook runs anyway, and deleting twice is harmless.
        }
        delete();
    }

    private void delete() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            List<Path> deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path p : deepestFirst) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + path + ": " + e.getMessage(), e);
        }
    }
}
