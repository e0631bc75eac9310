package dev.sluice.bench.files;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * The bytes every target writes: one direct buffer of random bytes, filled once. A file of {@code size} bytes is
 * {@code ceil(size / chunkSize)} chunks, the last one holding what is left.
 *
 * <p>In {@code copies} mode (the default) each chunk is a freshly allocated heap buffer holding a copy, as a server
 * receiving an upload holds each received chunk in memory of its own: a writer that queues chunks shows it in the
 * heap. In {@code views} mode each chunk is a view of the shared buffer, which costs no copy and no memory: the pure
 * overhead of the writer.
 */
final class ChunkData {

    private final ByteBuffer data;
    private final boolean copies;

    ChunkData(int chunkSize, boolean copies) {
        byte[] bytes = new byte[chunkSize];
        new SplittableRandom(1).nextBytes(bytes);
        this.data = ByteBuffer.allocateDirect(chunkSize).put(bytes).flip();
        this.copies = copies;
    }

    int chunkSize() {
        return data.capacity();
    }

    /** How many chunks a file of {@code size} bytes takes. */
    int chunks(long size) {
        return (int) ((size + chunkSize() - 1) / chunkSize());
    }

    /** Chunk {@code index} of a file of {@code size} bytes: a fresh copy or a view, by mode. */
    ByteBuffer chunk(long size, int index) {
        int length = (int) Math.min(chunkSize(), size - (long) index * chunkSize());
        ByteBuffer view = data.duplicate().limit(length);
        return copies ? ByteBuffer.allocate(length).put(view).flip() : view;
    }
}
