package dev.sluice.files;

import dev.sluice.files.internal.ByteBufChunks;
import dev.sluice.files.internal.ByteBufferChunks;
import dev.sluice.files.internal.ChannelOpener;
import dev.sluice.files.internal.ChunkType;
import dev.sluice.files.internal.FileReadFlux;
import dev.sluice.files.internal.FileWriteMono;
import dev.sluice.files.internal.GreedDemand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads and writes files as Reactive Streams, with memory bounded by demand on both sides.
 *
 * <ul>
 *   <li>{@link #read(Path, ReadOptions) read} is a cold {@code Flux} of chunks: each subscriber opens the file,
 *   gets chunks read at absolute positions on the options' scheduler only as it requests them (one read in flight),
 *   and the file is closed on completion, error or cancel. The subscriber owns each {@code ByteBuf} it receives and
 *   must release it.</li>
 *   <li>{@link #write(Publisher, Path, WriteOptions) write} is a {@code Mono<Long>} of the bytes written. It takes
 *   ownership of every {@code ByteBuf} the source emits and releases it once written (or when the write is
 *   cancelled or fails). It requests from the source only as writes complete, within an adaptive window capped in
 *   items and bytes (see {@link WriteOptions}), so a source faster than the disk waits instead of filling memory.
 *   Cancelling the {@code Mono} cancels the source and closes the file; what was written stays.</li>
 *   <li>{@link #copy(Path, Path, ReadOptions, WriteOptions) copy} pipes a read into a write.</li>
 * </ul>
 *
 * <p>Nothing happens until subscription; every subscription is independent (its own file handle and demand
 * window). All methods are thread-safe.
 */
public final class ReactiveFiles {

    /** Chunk handling for writes; the allocator is only used by reads, so any will do. */
    private static final ByteBufChunks WRITE_CHUNKS = new ByteBufChunks(ByteBufAllocator.DEFAULT);

    private ReactiveFiles() {
    }

    /** {@link #read(Path, ReadOptions)} with {@link ReadOptions#defaults()}. */
    public static Flux<ByteBuf> read(Path path) {
        return read(path, ReadOptions.defaults());
    }

    /**
     * The content of {@code path} as {@code ByteBuf} chunks of {@link ReadOptions#chunkSize()} bytes (the last one
     * holds what is left), allocated from {@link ReadOptions#allocator()}. An empty file completes without a chunk;
     * a missing or unreadable file fails the subscriber, without any request, once it is subscribed.
     */
    public static Flux<ByteBuf> read(Path path, ReadOptions options) {
        return read(path, options, new ByteBufChunks(options.allocator()));
    }

    /** The content of {@code path} as heap {@code ByteBuffer} chunks; otherwise as {@link #read(Path, ReadOptions)}. */
    public static Flux<ByteBuffer> readByteBuffers(Path path, ReadOptions options) {
        return read(path, options, ByteBufferChunks.INSTANCE);
    }

    private static <T> Flux<T> read(Path path, ReadOptions options, ChunkType<T> chunks) {
        return FileReadFlux.create(path, chunks, options.chunkSize(), ChannelOpener.DEFAULT, options.scheduler());
    }

    /** {@link #write(Publisher, Path, WriteOptions)} with {@link WriteOptions#defaults()}. */
    public static Mono<Long> write(Publisher<? extends ByteBuf> source, Path path) {
        return write(source, path, WriteOptions.defaults());
    }

    /**
     * Writes the chunks of {@code source} to {@code path}, in order from offset 0, and yields the number of bytes
     * written. The file is opened with {@link WriteOptions#openOptions()} on the scheduler at subscription; the
     * {@code Mono} fails if it cannot be opened, written, forced or closed, or if the source fails or emits more
     * than it was asked for.
     *
     * @param source chunks; the writer takes ownership of each and releases it
     */
    public static Mono<Long> write(Publisher<? extends ByteBuf> source, Path path, WriteOptions options) {
        return write(source, path, options, WRITE_CHUNKS);
    }

    /**
     * Writes {@code ByteBuffer} chunks; otherwise as {@link #write(Publisher, Path, WriteOptions)}. Each buffer's
     * remaining bytes are written and its position advanced to its limit.
     */
    public static Mono<Long> writeByteBuffers(Publisher<? extends ByteBuffer> source, Path path,
            WriteOptions options) {
        return write(source, path, options, ByteBufferChunks.INSTANCE);
    }

    private static <T> Mono<Long> write(Publisher<? extends T> source, Path path, WriteOptions options,
            ChunkType<T> chunks) {
        int min = options.minItemsInFlight();
        int initial = options.initialItemsInFlight();
        int max = options.maxItemsInFlight();
        long maxBytes = options.maxBytesInFlight();
        return FileWriteMono.create(source, path, options.openOptions(), options.fsync(), chunks,
                ChannelOpener.DEFAULT, options.scheduler(), () -> new GreedDemand(min, initial, max, maxBytes), max);
    }

    /** {@link #copy(Path, Path, ReadOptions, WriteOptions)} with the default options. */
    public static Mono<Long> copy(Path source, Path target) {
        return copy(source, target, ReadOptions.defaults(), WriteOptions.defaults());
    }

    /**
     * Copies {@code source} to {@code target} by piping a read into a write, and yields the number of bytes copied.
     * At most the write's window of chunks is in memory at any time.
     */
    public static Mono<Long> copy(Path source, Path target, ReadOptions readOptions, WriteOptions writeOptions) {
        return write(read(source, readOptions), target, writeOptions);
    }
}
