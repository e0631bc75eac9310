package dev.sluice.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * A source far faster than a deliberately slowed writer must never get more than the caps outstanding: items
 * requested and not yet written, and the bytes of items received and not yet written. Each test counts both at
 * every emission (the moment they peak) and checks the maximum against the cap, and that the cap was reached, so
 * the cap, not luck, is what bounded it. An item counts as written once the writer has released it, which it does
 * right after the (gathering) write that took it.
 */
class BoundedMemoryTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Set<OpenOption> OPTIONS =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    private final AtomicLong released = new AtomicLong();
    /** Counts the chunks the writer releases, i.e. has written. */
    private final ChunkType<ByteBuf> chunks = new ForwardingChunks<>(new ByteBufChunks(ByteBufAllocator.DEFAULT)) {
        @Override
        public void release(ByteBuf chunk) {
            released.incrementAndGet();
            super.release(chunk);
        }
    };
    /** The writer's slowness: every write waits this long on the writer's thread (the test thread never sleeps). */
    private static final long WRITE_DELAY_NANOS = 20_000;
    private static final InstrumentedFileChannel.Hook SLOW = (index, position) ->
            LockSupport.parkNanos(WRITE_DELAY_NANOS);

    @TempDir
    Path dir;

    private final InstrumentedFileChannel[] channel = new InstrumentedFileChannel[1];

    /** Watches a source: what it was asked for, what it emitted, and the peaks of what the writer held. */
    private final class Meter {
        final AtomicLong requested = new AtomicLong();
        final AtomicLong emittedItems = new AtomicLong();
        final AtomicLong emittedBytes = new AtomicLong();
        final AtomicLong maxOutstandingItems = new AtomicLong();
        final AtomicLong maxHeldItems = new AtomicLong();
        final AtomicLong maxHeldBytes = new AtomicLong();

        /** Call after an emission. */
        void measure(long writtenItems) {
            maxHeldBytes.accumulateAndGet(emittedBytes.get() - channel[0].bytesWritten.get(), Math::max);
            maxHeldItems.accumulateAndGet(emittedItems.get() - writtenItems, Math::max);
            maxOutstandingItems.accumulateAndGet(requested.get() - writtenItems, Math::max);
        }
    }

    /** A metered source that emits on request: the writer's demand bounds it. */
    private Flux<ByteBuf> metered(Meter meter, int count, IntUnaryOperator sizeOf) {
        return fusedMetered(meter, count, sizeOf).hide();
    }

    /**
     * A metered source that fuses synchronously: the writer polls it and requests nothing, so what it holds is
     * bounded by how it polls (see {@code FileWriteSubscriber}'s class comment).
     */
    private Flux<ByteBuf> fusedMetered(Meter meter, int count, IntUnaryOperator sizeOf) {
        return Flux.range(0, count)
                .doOnRequest(meter.requested::addAndGet)
                .map(i -> {
                    int size = sizeOf.applyAsInt(i);
                    meter.emittedItems.incrementAndGet();
                    meter.emittedBytes.addAndGet(size);
                    return ByteBufAllocator.DEFAULT.ioBuffer(size).writeBytes(ChunkSource.content(i, size));
                })
                .doOnNext(b -> meter.measure(released.get()));
    }

    private Mono<Long> write(Flux<ByteBuf> source, Path out, GreedDemand demand, int maxItems) {
        return FileWriteMono.create(source, out, OPTIONS, false, chunks,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, SLOW, channel),
                Schedulers.boundedElastic(), () -> demand, maxItems);
    }

    @Test
    void aFixedWindowOfSixteenNeverHasMoreThanSixteenItemsOutstanding() throws IOException {
        int size = 8 * 1024;
        int count = 500;
        Meter meter = new Meter();
        Path out = dir.resolve("out");

        StepVerifier.create(write(metered(meter, count, i -> size), out, new GreedDemand(16, 16, 16, 1L << 40), 16))
                .expectNext((long) count * size)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.maxOutstandingItems).as("requested and not written").hasValue(16);
        assertThat(meter.maxHeldItems).as("received and not written").hasValue(16);
        assertThat(meter.maxHeldBytes).hasValue(16L * size);
        assertThat(meter.requested).as("never asked for more than there was plus one window").hasValueLessThan(
                count + 16);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(count, i -> size));
    }

    @Test
    void theByteCapBoundsTheBytesHeldWhenItIsTighterThanTheWindow() throws IOException {
        int size = 8 * 1024;
        int count = 500;
        long maxBytes = 10L * size;
        Meter meter = new Meter();
        Path out = dir.resolve("out");

        StepVerifier.create(write(metered(meter, count, i -> size), out, new GreedDemand(64, 64, 64, maxBytes), 64))
                .expectNext((long) count * size)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.maxHeldBytes).hasValue(maxBytes);
        assertThat(meter.maxOutstandingItems).hasValue(10);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(count, i -> size));
    }

    @Test
    void theByteCapHoldsForItemsOfVaryingSizeNoLargerThanTheFirst() {
        int first = 16 * 1024;
        int count = 500;
        long maxBytes = 100L * 1024;
        IntUnaryOperator sizeOf = i -> i == 0 ? first : 1 + (i * 7919) % first;
        Meter meter = new Meter();

        StepVerifier.create(write(metered(meter, count, sizeOf), dir.resolve("out"),
                new GreedDemand(2, 4, 64, maxBytes), 64))
                .expectNextCount(1)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.maxHeldBytes.get()).isLessThanOrEqualTo(maxBytes);
    }

    @Test
    void aFusedSourceIsPolledNoFurtherThanTheItemCap() throws IOException {
        int size = 1024;
        int count = 500;
        Meter meter = new Meter();
        Path out = dir.resolve("out");

        StepVerifier.create(write(fusedMetered(meter, count, i -> size), out, new GreedDemand(1, 4, 4, 1L << 40), 4))
                .expectNext((long) count * size)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.requested).as("fused: polled, never requested").hasValue(0);
        assertThat(meter.maxHeldItems).as("batches of four, the cap").hasValue(4);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(count, i -> size));
    }

    @Test
    void aFusedSourceIsPolledNoFurtherThanTheByteCap() throws IOException {
        int size = 3000;
        int count = 500;
        long maxBytes = 10_000;
        Meter meter = new Meter();
        Path out = dir.resolve("out");

        StepVerifier.create(write(fusedMetered(meter, count, i -> size), out, new GreedDemand(1, 64, 64, maxBytes),
                64))
                .expectNext((long) count * size)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.requested).hasValue(0);
        assertThat(meter.maxHeldBytes).as("three fit in 10,000 bytes, a fourth would not").hasValue(3L * size);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(count, i -> size));
    }

    /** With 64 KiB chunks a batch is one chunk, and the next is not polled until that one is written. */
    @Test
    void aFusedSourceOfLargeChunksHasOneChunkHeldAtATime() throws IOException {
        int size = 64 * 1024;
        int count = 100;
        Meter meter = new Meter();
        Path out = dir.resolve("out");

        StepVerifier.create(write(fusedMetered(meter, count, i -> size), out,
                new GreedDemand(2, 4, 64, 1024 * 1024), 64))
                .expectNext((long) count * size)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(meter.requested).hasValue(0);
        assertThat(meter.maxHeldItems).hasValue(1);
        assertThat(meter.maxHeldBytes).hasValue(size);
        assertThat(channel[0].buffersPerWrite).as("one chunk per write").allMatch(n -> n == 1).hasSize(count);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(count, i -> size));
    }

    /**
     * The adaptive window, step by step on the test thread. First the source is slow (one item at a time, each
     * written before the next comes), so the writer starves and the window grows to the cap. Then the source floods:
     * it answers every request at once. The writer holds exactly the cap and no more, and, finding a backlog of more
     * than half its window after a batch, halves the window until a full batch leaves exactly half of it queued: two
     * batches, one written while the next waits. (Smaller, it could not fill its batches.)
     */
    @Test
    void theWindowGrowsToTheCapWhileTheWriterStarvesAndHoldsItWhenTheSourceFloods() {
        int size = 1024;
        int max = 64;
        ManualExecutor executor = new ManualExecutor();
        ManualPublisher<ByteBuf> source = new ManualPublisher<>();
        AtomicLong maxOutstanding = new AtomicLong();
        AtomicLong maxHeld = new AtomicLong();
        AtomicLong maxHeldLately = new AtomicLong();
        source.afterEmit = () -> {
            long written = released.get();
            maxOutstanding.accumulateAndGet(source.requested.get() - written, Math::max);
            maxHeld.accumulateAndGet(source.emitted() - written, Math::max);
            if (written > 400) {
                maxHeldLately.accumulateAndGet(source.emitted() - written, Math::max);
            }
        };
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        FileWriteMono.create(source, dir.resolve("out"), OPTIONS, false, chunks,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, InstrumentedFileChannel.NONE, channel),
                executor.scheduler(), () -> new GreedDemand(2, 4, max, 1L << 40), max).subscribe(result);
        result.request(1);
        executor.runAll();

        // Slow source: one item, then the writer writes it and tops up.
        int steps = 0;
        while (source.requested.get() - released.get() < max && steps++ < 100) {
            source.emit(ByteBufAllocator.DEFAULT.ioBuffer(size).writeZero(size));
            executor.runAll();
        }
        assertThat(source.requested.get() - released.get()).as("window grown to the cap").isEqualTo(max);
        assertThat(steps).as("doubling gets there in a few dozen writes").isLessThan(40);
        assertThat(maxHeld).as("the writer kept up: at most one item held").hasValue(1);

        // Flood: every request is answered at once, 1000 items in all.
        source.flood(() -> ByteBufAllocator.DEFAULT.ioBuffer(size).writeZero(size), 1_000);
        executor.runAll();

        assertThat(result.completed).isTrue();
        assertThat(maxOutstanding).as("outstanding never above the cap").hasValue(max);
        assertThat(maxHeld).as("held reached the cap, and no more").hasValue(max);
        assertThat(maxHeldLately).as("the window shrank to two batches under the flood")
                .hasValue(2 * GatheringBatch.MAX_BATCH_CHUNKS);
    }
}
