package dev.sluice.cli.files.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file written under a temporary name beside its target and published by one atomic rename, so that the target
 * name only ever shows a complete file: {@link #create} the temporary file, write it, then {@link #commit()} it or
 * {@link #abort()} it.
 *
 * <p>The temporary file lives in the target's directory (a rename is only atomic within one file system) and is
 * named {@code <prefix><16 hex digits>.tmp}, created exclusively with the default permissions (the umask
 * applies), so the committed file gets the permissions any new file would.
 *
 * <p>Thread-safe: the methods are serialized, so an {@link #abort()} from a cancelling thread either comes before
 * the commit (and the commit fails) or after it (and does nothing): the rename is the point of no return. An
 * abort before {@link #create} makes the create fail without creating anything. The methods block on file I/O.
 */
public final class StagedFile {

    private static final int CREATE_ATTEMPTS = 16;

    private enum State { NEW, CREATED, COMMITTED, ABORTED }

    private final String prefix;
    private State state = State.NEW;
    private Path temp;
    private Path target;

    /** A staged file whose temporary name starts with {@code prefix}. */
    public StagedFile(String prefix) {
        this.prefix = prefix;
    }

    /**
     * Creates the empty temporary file for {@code target}, in its directory, and returns its path.
     *
     * @throws CancellationException if {@link #abort()} came first
     * @throws IllegalStateException if called twice
     * @throws IOException if the directory cannot take the file
     */
    public synchronized Path create(Path target) throws IOException {
        if (state == State.ABORTED) {
            throw new CancellationException("aborted before the temporary file for " + target + " was created");
        }
        if (state != State.NEW) {
            throw new IllegalStateException("create in state " + state + ": " + temp);
        }
        byte[] random = new byte[8];
        for (int attempt = 1; ; attempt++) {
            ThreadLocalRandom.current().nextBytes(random);
            Path candidate = target.resolveSibling(prefix + HexFormat.of().formatHex(random) + ".tmp");
            try {
                Files.createFile(candidate);
            } catch (FileAlreadyExistsException e) {
                if (attempt == CREATE_ATTEMPTS) {
                    throw e;
                }
                continue;
            }
            this.temp = candidate;
            this.target = target;
            this.state = State.CREATED;
            return candidate;
        }
    }

    /**
     * Renames the temporary file to the target in one atomic step, replacing any file of that name. With
     * {@code fsyncDirectory}, the directory is then forced to the device so that the rename survives a crash
     * (where the platform allows a directory to be opened; elsewhere that step is skipped).
     *
     * @throws CancellationException if {@link #abort()} came first
     * @throws IllegalStateException if there is no temporary file or it was committed already
     * @throws IOException if the rename fails; the temporary file is then left for {@link #abort()}
     */
    public synchronized void commit(boolean fsyncDirectory) throws IOException {
        if (state == State.ABORTED) {
            throw new CancellationException("aborted before " + target + " was committed");
        }
        if (state != State.CREATED) {
            throw new IllegalStateException("commit in state " + state);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        state = State.COMMITTED;
        if (fsyncDirectory) {
            forceDirectory(target.getParent());
        }
    }

    /**
     * Deletes the temporary file unless the target was committed; later creates and commits fail. Idempotent.
     *
     * @return whether a temporary file was deleted
     * @throws IOException if it could not be deleted (a retry may succeed)
     */
    public synchronized boolean abort() throws IOException {
        if (state == State.COMMITTED) {
            return false;
        }
        state = State.ABORTED;
        return temp != null && Files.deleteIfExists(temp);
    }

    /** Whether {@link #commit} succeeded. */
    public synchronized boolean committed() {
        return state == State.COMMITTED;
    }

    private static void forceDirectory(Path dir) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException e) {
            // Some platforms (Windows) cannot open a directory; their renames are as durable as they get.
            return;
        }
        try (channel) {
            channel.force(true);
        }
    }
}
