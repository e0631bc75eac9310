package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.reactivestreams.tck.TestEnvironment;

/**
 * What the Reactive Streams TCK classes share. They run under TestNG (through the JUnit Platform's TestNG engine),
 * where JUnit's {@code @TempDir} does not exist: each class makes its own temporary directory and deletes it.
 */
final class TckSupport {

    /**
     * Heap buffers the leak detector does not track: the TCK's own subscribers never release what they receive and
     * elements it creates may never be delivered, which is the TCK's business, not a leak of ours; the garbage
     * collector reclaims them. (Netty tracks only direct buffers of this allocator, and it is told not to.)
     */
    static final UnpooledByteBufAllocator UNTRACKED_HEAP = new UnpooledByteBufAllocator(false, true);

    /** {@code ByteBuf} chunks on {@link #UNTRACKED_HEAP}. */
    static ChunkType<ByteBuf> untrackedChunks() {
        return new ForwardingChunks<>(new ByteBufChunks(UNTRACKED_HEAP)) {
            @Override
            public ByteBuf allocate(int capacity) {
                return UNTRACKED_HEAP.heapBuffer(capacity, capacity);
            }
        };
    }

    private TckSupport() {
    }

    /** Generous for expected signals (a loaded CI box), short for the many "nothing more arrives" waits. */
    static TestEnvironment environment() {
        return new TestEnvironment(2_000, 100, 20);
    }

    static Path createDirectory() throws IOException {
        return Files.createTempDirectory("sluice-files-tck");
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
