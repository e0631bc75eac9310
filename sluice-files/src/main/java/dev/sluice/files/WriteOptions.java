package dev.sluice.files;

import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * How {@link ReactiveFiles} writes a file: the open options, whether to force the data to the device at the end,
 * the scheduler that runs the (blocking) writes, and the bounds of the adaptive request window.
 *
 * <h2>The request window</h2>
 * The writer keeps at most a window of items <em>outstanding</em> (requested from the source and not yet written)
 * and asks for more only as writes complete. The window starts at {@link #initialItemsInFlight()}, doubles while the
 * writer is left waiting for data and halves while a backlog builds, within {@link #minItemsInFlight()} and
 * {@link #maxItemsInFlight()}. Independently, the bytes of the outstanding items are kept within
 * {@link #maxBytesInFlight()}, each pending item counted as the largest seen so far (an item larger than that cap is
 * still written, alone). Setting the minimum equal to the maximum gives a fixed window.
 *
 * <p>A source that Reactor can fuse synchronously ({@code Flux.fromIterable}, {@code Flux.range(...).map(...)}) is
 * not requested from but polled, a chunk at a time as the writer fills each write; it then never holds more than one
 * write's chunks and one more, within the same two caps.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder()} or take the {@link #defaults()}.
 */
public final class WriteOptions {

    /** The largest window allowed, in items: it sizes a queue, so it stays modest. */
    public static final int MAX_ITEMS_LIMIT = 1 << 16;
    /** Default {@link #minItemsInFlight()}: one item being written while the next waits. */
    public static final int DEFAULT_MIN_ITEMS = 2;
    /** Default {@link #initialItemsInFlight()}. */
    public static final int DEFAULT_INITIAL_ITEMS = 4;
    /** Default {@link #maxItemsInFlight()}. */
    public static final int DEFAULT_MAX_ITEMS = 64;
    /** Default {@link #maxBytesInFlight()}: 1 MiB, sixteen 64 KiB chunks. */
    public static final long DEFAULT_MAX_BYTES = 1024 * 1024;

    private static final Set<OpenOption> DEFAULT_OPEN_OPTIONS = Collections.unmodifiableSet(new LinkedHashSet<>(
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)));
    private static final WriteOptions DEFAULTS = builder().build();

    private final Set<OpenOption> openOptions;
    private final boolean fsync;
    private final int minItems;
    private final int initialItems;
    private final int maxItems;
    private final long maxBytes;
    private final Scheduler scheduler;

    private WriteOptions(Set<OpenOption> openOptions, boolean fsync, int minItems, int initialItems, int maxItems,
            long maxBytes, Scheduler scheduler) {
        this.openOptions = openOptions;
        this.fsync = fsync;
        this.minItems = minItems;
        this.initialItems = initialItems;
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.scheduler = scheduler;
    }

    /**
     * {@code CREATE, TRUNCATE_EXISTING, WRITE}, no fsync, a window of 2 to 64 items starting at 4, 1 MiB in flight,
     * writes on {@link FileIoScheduler#shared()}.
     */
    public static WriteOptions defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options the file is opened with (unmodifiable). */
    public Set<OpenOption> openOptions() {
        return openOptions;
    }

    /** Whether the data is forced to the device ({@code FileChannel.force(false)}) before completion is reported. */
    public boolean fsync() {
        return fsync;
    }

    /** The smallest the request window shrinks to, in items; {@code >= 1}. */
    public int minItemsInFlight() {
        return minItems;
    }

    /** The request window the writer starts with (after a first request of one item), in items. */
    public int initialItemsInFlight() {
        return initialItems;
    }

    /** The most items ever outstanding (requested and not yet written). */
    public int maxItemsInFlight() {
        return maxItems;
    }

    /** The most bytes ever outstanding, counting each pending item as the largest seen so far. */
    public long maxBytesInFlight() {
        return maxBytes;
    }

    /** The scheduler the writes run on; {@link FileIoScheduler#shared()} unless one was set. */
    public Scheduler scheduler() {
        return scheduler != null ? scheduler : FileIoScheduler.shared();
    }

    @Override
    public String toString() {
        return "WriteOptions{openOptions=" + openOptions + ", fsync=" + fsync + ", itemsInFlight=" + minItems + ".."
                + maxItems + " (initial " + initialItems + "), maxBytesInFlight=" + maxBytes + ", scheduler="
                + scheduler() + '}';
    }

    /**
     * Builds {@link WriteOptions}; each setter validates its argument at once and {@link #build()} checks that the
     * window bounds agree. A window bound left unset follows the others: setting only the maximum to 1 gives a
     * window of exactly 1. Not thread-safe.
     */
    public static final class Builder {

        private Set<OpenOption> openOptions = DEFAULT_OPEN_OPTIONS;
        private boolean fsync;
        private int minItems = -1;
        private int initialItems = -1;
        private int maxItems = DEFAULT_MAX_ITEMS;
        private long maxBytes = DEFAULT_MAX_BYTES;
        private Scheduler scheduler;

        private Builder() {
        }

        /**
         * The options to open the file with, replacing the default {@code CREATE, TRUNCATE_EXISTING, WRITE}.
         *
         * @throws IllegalArgumentException if they lack {@code WRITE} or contain {@code APPEND} (the writer writes
         *     the file in order from offset 0, which appending would contradict)
         */
        public Builder openOptions(OpenOption... options) {
            Set<OpenOption> set = new LinkedHashSet<>();
            for (OpenOption o : options) {
                set.add(Objects.requireNonNull(o, "option"));
            }
            if (!set.contains(StandardOpenOption.WRITE)) {
                throw new IllegalArgumentException("openOptions lack WRITE: " + set);
            }
            if (set.contains(StandardOpenOption.APPEND)) {
                throw new IllegalArgumentException("openOptions contain APPEND, but writes start at offset 0: " + set);
            }
            this.openOptions = Collections.unmodifiableSet(set);
            return this;
        }

        /** Whether to force the data to the device before reporting completion; default false. */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /**
         * The smallest the window shrinks to, in items.
         *
         * @throws IllegalArgumentException if {@code items < 1}
         */
        public Builder minItemsInFlight(int items) {
            if (items < 1) {
                throw new IllegalArgumentException("minItemsInFlight < 1: " + items);
            }
            this.minItems = items;
            return this;
        }

        /**
         * The window to start with, in items.
         *
         * @throws IllegalArgumentException if {@code items < 1}
         */
        public Builder initialItemsInFlight(int items) {
            if (items < 1) {
                throw new IllegalArgumentException("initialItemsInFlight < 1: " + items);
            }
            this.initialItems = items;
            return this;
        }

        /**
         * The most items ever outstanding.
         *
         * @throws IllegalArgumentException if {@code items < 1} or {@code items > }{@value #MAX_ITEMS_LIMIT}
         */
        public Builder maxItemsInFlight(int items) {
            if (items < 1) {
                throw new IllegalArgumentException("maxItemsInFlight < 1: " + items);
            }
            if (items > MAX_ITEMS_LIMIT) {
                throw new IllegalArgumentException("maxItemsInFlight > " + MAX_ITEMS_LIMIT + ": " + items);
            }
            this.maxItems = items;
            return this;
        }

        /**
         * The most bytes ever outstanding.
         *
         * @throws IllegalArgumentException if {@code bytes < 1}
         */
        public Builder maxBytesInFlight(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxBytesInFlight < 1: " + bytes);
            }
            this.maxBytes = bytes;
            return this;
        }

        /**
         * The scheduler that runs the writes. Writes block, so it must tolerate blocking tasks and should be
         * bounded: {@link FileIoScheduler#shared()} (the default), a {@link FileIoScheduler} of its own, or
         * {@link Schedulers#boundedElastic()}.
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException unless {@code minItemsInFlight <= initialItemsInFlight <=
         *     maxItemsInFlight}
         */
        public WriteOptions build() {
            int max = maxItems;
            int min = minItems > 0 ? minItems : Math.min(DEFAULT_MIN_ITEMS, initialItems > 0 ? initialItems : max);
            int initial = initialItems > 0 ? initialItems : Math.max(min, Math.min(DEFAULT_INITIAL_ITEMS, max));
            if (min > max) {
                throw new IllegalArgumentException("minItemsInFlight > maxItemsInFlight: " + min + " > " + max);
            }
            if (initial < min) {
                throw new IllegalArgumentException(
                        "initialItemsInFlight < minItemsInFlight: " + initial + " < " + min);
            }
            if (initial > max) {
                throw new IllegalArgumentException(
                        "initialItemsInFlight > maxItemsInFlight: " + initial + " > " + max);
            }
            return new WriteOptions(openOptions, fsync, min, initial, max, maxBytes, scheduler);
        }
    }
}
