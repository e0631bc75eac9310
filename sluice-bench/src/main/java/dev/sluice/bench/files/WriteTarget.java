package dev.sluice.bench.files;

import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

/**
 * One way of writing a stream of chunks to a file: Sluice, a peer library, or the plain {@code FileChannel} ceiling.
 * Every target writes the same chunks ({@link ChunkData}), from a source that emits as fast as demand allows.
 */
interface WriteTarget extends AutoCloseable {

    /** The name in the table. */
    String name();

    /**
     * Starts writing {@code size} bytes, in chunks of {@link ChunkData#chunkSize()}, to {@code file} (created or
     * truncated); the stage completes once the file is written and closed.
     */
    CompletionStage<?> write(Path file, long size);

    /** Called before a row with the row's parallelism, for targets that size a pool by it. */
    default void prepare(int parallelism) {
    }

    @Override
    default void close() {
    }
}
