package dev.sluice.files;

import io.netty.buffer.ByteBufAllocator;
import java.util.Objects;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * How {@link ReactiveFiles} reads a file: the chunk size, the allocator of {@code ByteBuf} chunks and the scheduler
 * that runs the (blocking, positional) reads.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder()} or take the {@link #defaults()}.
 */
public final class ReadOptions {

    /** The default chunk size: 64 KiB, a size disks and sockets both handle in one call. */
    public static final int DEFAULT_CHUNK_SIZE = 64 * 1024;

    private static final ReadOptions DEFAULTS = builder().build();

    private final int chunkSize;
    private final ByteBufAllocator allocator;
    private final Scheduler scheduler;

    private ReadOptions(Builder b) {
        this.chunkSize = b.chunkSize;
        this.allocator = b.allocator;
        this.scheduler = b.scheduler;
    }

    /** 64 KiB chunks from {@link ByteBufAllocator#DEFAULT}, read on {@link FileIoScheduler#shared()}. */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The size of every chunk but the last, in bytes; {@code >= 1}. */
    public int chunkSize() {
        return chunkSize;
    }

    /** The allocator of {@code ByteBuf} chunks. */
    public ByteBufAllocator allocator() {
        return allocator;
    }

    /** The scheduler the reads run on; {@link FileIoScheduler#shared()} unless one was set. */
    public Scheduler scheduler() {
        return scheduler != null ? scheduler : FileIoScheduler.shared();
    }

    @Override
    public String toString() {
        return "ReadOptions{chunkSize=" + chunkSize + ", allocator=" + allocator + ", scheduler=" + scheduler() + '}';
    }

    /** Builds {@link ReadOptions}; each setter validates its argument at once. Not thread-safe. */
    public static final class Builder {

        private int chunkSize = DEFAULT_CHUNK_SIZE;
        private ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
        private Scheduler scheduler;

        private Builder() {
        }

        /**
         * The size of each chunk in bytes; the last chunk of a file holds what is left.
         *
         * @throws IllegalArgumentException if {@code chunkSize < 1}
         */
        public Builder chunkSize(int chunkSize) {
            if (chunkSize < 1) {
                throw new IllegalArgumentException("chunkSize < 1: " + chunkSize);
            }
            this.chunkSize = chunkSize;
            return this;
        }

        /** The allocator of {@code ByteBuf} chunks (not used for {@code ByteBuffer} reads). */
        public Builder allocator(ByteBufAllocator allocator) {
            this.allocator = Objects.requireNonNull(allocator, "allocator");
            return this;
        }

        /**
         * The scheduler that runs the reads. Reads block, so it must tolerate blocking tasks and should be bounded:
         * {@link FileIoScheduler#shared()} (the default), a {@link FileIoScheduler} of its own, or
         * {@link Schedulers#boundedElastic()}.
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** The options. */
        public ReadOptions build() {
            return new ReadOptions(this);
        }
    }
}
