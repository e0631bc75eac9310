package dev.sluice.files.internal;

import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;

/**
 * A write of a source of chunks to a file as a {@code Mono<Long>} of the bytes written: each subscription
 * subscribes a fresh {@link FileWriteSubscriber}, with its own {@link GreedDemand}, to the source; cancelling the
 * {@code Mono} cancels the write.
 *
 * <p>Not part of the API: {@code ReactiveFiles.write} builds it. Thread-safe (immutable).
 *
 * @param <T> the chunk type
 */
public final class FileWriteMono<T> extends Mono<Long> {

    private final Publisher<? extends T> source;
    private final Path path;
    private final Set<? extends OpenOption> openOptions;
    private final boolean fsync;
    private final ChunkType<T> chunks;
    private final ChannelOpener opener;
    private final Scheduler scheduler;
    private final Supplier<GreedDemand> demand;
    private final int maxItems;

    /**
     * A write of {@code source} to {@code path}, assembled (Reactor's assembly hooks see it).
     *
     * @param demand makes the demand controller of each subscription
     * @param maxItems the most items the controller ever lets be outstanding (it sizes the queue)
     */
    public static <T> Mono<Long> create(Publisher<? extends T> source, Path path, Set<? extends OpenOption> openOptions,
            boolean fsync, ChunkType<T> chunks, ChannelOpener opener, Scheduler scheduler,
            Supplier<GreedDemand> demand, int maxItems) {
        return onAssembly(new FileWriteMono<>(source, path, openOptions, fsync, chunks, opener, scheduler, demand,
                maxItems));
    }

    private FileWriteMono(Publisher<? extends T> source, Path path, Set<? extends OpenOption> openOptions,
            boolean fsync, ChunkType<T> chunks, ChannelOpener opener, Scheduler scheduler,
            Supplier<GreedDemand> demand, int maxItems) {
        this.source = Objects.requireNonNull(source, "source");
        this.path = Objects.requireNonNull(path, "path");
        this.openOptions = Objects.requireNonNull(openOptions, "openOptions");
        this.fsync = fsync;
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.demand = Objects.requireNonNull(demand, "demand");
        this.maxItems = maxItems;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Long> actual) {
        Result result = new Result(actual);
        FileWriteSubscriber<T> writer = new FileWriteSubscriber<>(path, openOptions, fsync, chunks, opener,
                scheduler, demand.get(), maxItems, result, actual.currentContext());
        result.writer = writer;
        actual.onSubscribe(result);
        source.subscribe(writer);
    }

    /** The downstream side: holds the byte count until it is requested; a cancel cancels the write. */
    static final class Result extends Operators.MonoSubscriber<Long, Long> implements WriteListener {

        /** Set before the downstream can see this object, so a cancel always finds it. */
        FileWriteSubscriber<?> writer;

        Result(CoreSubscriber<? super Long> actual) {
            super(actual);
        }

        @Override
        public void onWritten(long bytes) {
            complete(bytes);
        }

        @Override
        public void onFailed(Throwable error) {
            if (isCancelled()) {
                Operators.onErrorDropped(error, actual.currentContext());
                return;
            }
            actual.onError(error);
        }

        @Override
        public void cancel() {
            super.cancel();
            writer.cancel();
        }
    }
}
