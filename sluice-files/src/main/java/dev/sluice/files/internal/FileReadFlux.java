package dev.sluice.files.internal;

import java.nio.file.Path;
import java.util.Objects;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * A file as a cold {@link Flux} of chunks: every subscriber gets its own {@link FileReadSubscription}, which opens
 * the file, reads it from the start and closes it.
 *
 * <p>Not part of the API: {@code ReactiveFiles.read} builds it. Thread-safe (immutable).
 *
 * @param <T> the chunk type
 */
public final class FileReadFlux<T> extends Flux<T> {

    private final Path path;
    private final ChunkType<T> chunks;
    private final int chunkSize;
    private final ChannelOpener opener;
    private final Scheduler scheduler;

    /**
     * A read of {@code path} in chunks of {@code chunkSize} bytes, assembled (Reactor's assembly hooks see it).
     *
     * @throws IllegalArgumentException if {@code chunkSize < 1}
     */
    public static <T> Flux<T> create(Path path, ChunkType<T> chunks, int chunkSize, ChannelOpener opener,
            Scheduler scheduler) {
        return onAssembly(new FileReadFlux<>(path, chunks, chunkSize, opener, scheduler));
    }

    private FileReadFlux(Path path, ChunkType<T> chunks, int chunkSize, ChannelOpener opener, Scheduler scheduler) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunkSize < 1: " + chunkSize);
        }
        this.path = Objects.requireNonNull(path, "path");
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.chunkSize = chunkSize;
        this.opener = Objects.requireNonNull(opener, "opener");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        new FileReadSubscription<>(actual, path, chunks, chunkSize, opener, scheduler).start();
    }
}
