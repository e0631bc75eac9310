package dev.sluice.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

class FileWriteSubscriberTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Set<OpenOption> OPTIONS =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    private static final ByteBufChunks CHUNKS = new ByteBufChunks(ByteBufAllocator.DEFAULT);

    @TempDir
    Path dir;

    private final InstrumentedFileChannel[] channel = new InstrumentedFileChannel[1];
    private final ManualExecutor executor = new ManualExecutor();
    private final ChunkSource source = new ChunkSource();

    private Mono<Long> write(Publisher<ByteBuf> from, Path to, boolean fsync, InstrumentedFileChannel.Hook hook,
            Scheduler scheduler) {
        return FileWriteMono.create(from, to, OPTIONS, fsync, CHUNKS,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, hook, channel), scheduler,
                () -> new GreedDemand(2, 4, 64, 1024 * 1024), 64);
    }

    private Mono<Long> writeManually(Publisher<ByteBuf> from, Path to, InstrumentedFileChannel.Hook hook) {
        return write(from, to, false, hook, executor.scheduler());
    }

    @Test
    void writesEveryChunkInOrderAndReportsTheBytes() throws IOException {
        IntUnaryOperator sizeOf = i -> 1 + (i * 977) % 5000;
        Path out = dir.resolve("out");
        byte[] expected = ChunkSource.expected(300, sizeOf);

        StepVerifier.create(write(source.finite(300, sizeOf), out, false, InstrumentedFileChannel.NONE,
                Schedulers.boundedElastic()))
                .expectNext((long) expected.length)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(Files.readAllBytes(out)).isEqualTo(expected);
        assertThat(source.live()).isZero();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(channel[0].forces).hasValue(0);
        assertThat(channel[0].maxInProgress).as("one write in flight").hasValue(1);
    }

    @Test
    void fsyncForcesTheFileOnceBeforeCompleting() {
        Path out = dir.resolve("out");

        StepVerifier.create(write(source.finite(10, i -> 100), out, true, InstrumentedFileChannel.NONE,
                Schedulers.boundedElastic()))
                .expectNext(1000L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(channel[0].forces).hasValue(1);
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void anEmptySourceLeavesAnEmptyFile() throws IOException {
        Path out = Files.write(dir.resolve("out"), new byte[123]);

        StepVerifier.create(write(Flux.empty(), out, false, InstrumentedFileChannel.NONE,
                Schedulers.boundedElastic()))
                .expectNext(0L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(out).isEmptyFile();
    }

    /** Regression for rio's greed, which requested more as chunks arrived, so a slow disk let memory grow. */
    @Test
    void demandIsToppedUpByCompletedWritesNotByArrivals() {
        ManualPublisher<ByteBuf> from = new ManualPublisher<>();
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        writeManually(from, dir.resolve("out"), InstrumentedFileChannel.NONE).subscribe(result);
        result.request(1);
        executor.runAll();
        assertThat(from.requested).as("a first item sizes the rest").hasValue(1);

        from.emit(ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100));
        assertThat(from.requested).as("an arrival asks for nothing").hasValue(1);
        executor.runAll();
        assertThat(from.requested).as("the write completed with the writer starving: window 4 -> 8").hasValue(9);

        for (int i = 0; i < 8; i++) {
            from.emit(ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100));
        }
        assertThat(from.requested).as("eight arrivals ask for nothing").hasValue(9);
        executor.runAll();
        assertThat(channel[0].bytesWritten).hasValue(900);
        assertThat(from.requested.get()).as("writes made room again").isGreaterThan(9);

        from.complete();
        executor.runAll();
        assertThat(result.items).containsExactly(900L);
        assertThat(result.completed).isTrue();
    }

    @Test
    void aRunYieldsItsThreadAfterABatchOfWrites() {
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        writeManually(source.endless(10), dir.resolve("out"), InstrumentedFileChannel.NONE).subscribe(result);
        result.request(1);

        assertThat(executor.runOne()).isTrue();

        assertThat(channel[0].bytesWritten).as("chunks of 10 bytes")
                .hasValue(10L * FileWriteSubscriber.WRITES_PER_RUN);
        assertThat(channel[0].writes.get()).as("gathered into fewer writes")
                .isLessThan(FileWriteSubscriber.WRITES_PER_RUN);
        assertThat(executor.pending()).as("the run dispatched its continuation").isEqualTo(1);
        result.cancel();
        executor.runAll();
        assertThat(source.live()).isZero();
    }

    @Test
    void cancellingMidWriteCancelsTheSourceReleasesEveryChunkAndClosesTheFile() {
        Disposable[] write = new Disposable[1];
        Mono<Long> mono = writeManually(source.endless(1000), dir.resolve("out"), (index, position) -> {
            if (index == 5) {
                write[0].dispose(); // lands while the write is in progress
            }
        });
        write[0] = mono.subscribe();

        executor.runAll();

        long bytes = channel[0].bytesWritten.get();
        assertThat(source.cancelled).isTrue();
        assertThat(channel[0].writes).as("none after the cancel").hasValue(5);
        assertThat(channel[0].buffersPerWrite.get(4)).as("the cancel landed in a gathering write").isGreaterThan(1);
        assertThat(bytes % 1000).as("the write in progress completed: whole chunks only").isZero();
        assertThat(source.emitted.size()).as("more were queued than written").isGreaterThan((int) (bytes / 1000));
        assertThat(source.live()).isZero();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(dir.resolve("out")).hasSize(bytes);
    }

    @Test
    void cancellingWhileIdleCancelsTheSourceAndClosesTheFile() {
        ManualPublisher<ByteBuf> from = new ManualPublisher<>();
        Disposable write = writeManually(from, dir.resolve("out"), InstrumentedFileChannel.NONE).subscribe();
        executor.runAll();

        write.dispose();
        executor.runAll();

        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void chunksArrivingAfterACancelAreReleased() {
        ManualPublisher<ByteBuf> from = new ManualPublisher<>();
        Disposable write = writeManually(from, dir.resolve("out"), InstrumentedFileChannel.NONE).subscribe();
        executor.runAll();
        write.dispose();
        executor.runAll();

        ByteBuf late = ByteBufAllocator.DEFAULT.ioBuffer(10).writeZero(10);
        from.emit(late);
        executor.runAll();

        assertThat(late.refCnt()).isZero();
        assertThat(channel[0].writes).hasValue(0);
    }

    @Test
    void aSourceErrorFailsTheWriteAndReleasesWhatWasQueued() throws IOException {
        ManualPublisher<ByteBuf> from = new ManualPublisher<>();
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        Path out = dir.resolve("out");
        writeManually(from, out, InstrumentedFileChannel.NONE).subscribe(result);
        result.request(1);
        executor.runAll();
        from.emit(ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100));
        executor.runAll();
        List<ByteBuf> queued = List.of(ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100),
                ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100));
        queued.forEach(from::emit);
        IllegalStateException boom = new IllegalStateException("source broke");

        from.error(boom);
        executor.runAll();

        assertThat(result.error).isSameAs(boom);
        assertThat(queued).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(from.cancelled).as("a source that ended is not cancelled").isFalse();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(out).hasSize(100);
    }

    @Test
    void aWriteErrorFailsTheWriteCancelsTheSourceAndReleasesEverything() {
        IOException boom = new IOException("disk full");

        StepVerifier.create(writeManually(source.endless(100), dir.resolve("out"), (index, position) -> {
            if (index == 3) {
                throw boom;
            }
        }))
                .then(executor::runAll)
                .expectErrorMatches(e -> e == boom)
                .verify(TIMEOUT);

        assertThat(source.cancelled).isTrue();
        assertThat(source.live()).isZero();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void aFileThatCannotBeOpenedFailsTheWriteAndCancelsTheSourceBeforeAnyDemand() {
        StepVerifier.create(write(source.endless(100), dir.resolve("no-such-dir").resolve("out"), false,
                InstrumentedFileChannel.NONE, Schedulers.boundedElastic()))
                .expectError(NoSuchFileException.class)
                .verify(TIMEOUT);

        assertThat(source.cancelled).isTrue();
        assertThat(source.emitted).isEmpty();
    }

    @Test
    void aSourceThatIgnoresDemandFailsTheWrite() {
        ManualPublisher<ByteBuf> from = new ManualPublisher<>();
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        writeManually(from, dir.resolve("out"), InstrumentedFileChannel.NONE).subscribe(result);
        result.request(1);
        executor.runAll();
        ByteBuf first = ByteBufAllocator.DEFAULT.ioBuffer(10).writeZero(10);
        ByteBuf second = ByteBufAllocator.DEFAULT.ioBuffer(10).writeZero(10);

        from.emit(first);
        from.emit(second);
        executor.runAll();

        assertThat(result.error).isInstanceOf(IllegalStateException.class)
                .hasMessage("onNext beyond demand: received=2, requested=1");
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(channel[0].writes).as("the failure is acted on before the queued chunk is written").hasValue(0);
    }

    @Test
    void writesByteBuffersAndConsumesThem() throws IOException {
        Path out = dir.resolve("out");
        List<ByteBuffer> buffers = List.of(ByteBuffer.wrap(ChunkSource.content(0, 300)),
                ByteBuffer.allocateDirect(200).put(ChunkSource.content(1, 200)).flip());
        Mono<Long> mono = FileWriteMono.create(Flux.fromIterable(buffers), out, OPTIONS, false,
                ByteBufferChunks.INSTANCE, ChannelOpener.DEFAULT, Schedulers.boundedElastic(),
                () -> new GreedDemand(2, 4, 64, 1024 * 1024), 64);

        StepVerifier.create(mono).expectNext(500L).expectComplete().verify(TIMEOUT);

        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(2, i -> i == 0 ? 300 : 200));
        assertThat(buffers).allSatisfy(b -> assertThat(b.hasRemaining()).isFalse());
    }

    @Test
    void aSourceThatFusesSynchronouslyIsPolledNotRequestedAndWrittenInOrder() throws IOException {
        // Sizes up to 100,000 bytes: some chunks do not fit the batch they were polled for and are carried over.
        IntUnaryOperator sizeOf = i -> 1 + (i * 7919) % 100_000;
        Path out = dir.resolve("out");
        byte[] expected = ChunkSource.expected(200, sizeOf);

        StepVerifier.create(write(source.fusedFinite(200, sizeOf), out, false, InstrumentedFileChannel.NONE,
                Schedulers.boundedElastic()))
                .expectNext((long) expected.length)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(Files.readAllBytes(out)).isEqualTo(expected);
        assertThat(source.requested).as("polled, never requested").hasValue(0);
        assertThat(source.live()).isZero();
        assertThat(channel[0].buffersPerWrite).as("small chunks were still gathered").anyMatch(n -> n > 1);
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void cancellingAFusedWriteReleasesTheChunkCarriedToTheNextBatch() {
        // Chunks of 10,000 and 60,000 bytes in turn: after a small one the writer polls another for the batch,
        // which does not fit and is carried over. So the batches are one chunk each, and the fifth write carries.
        Disposable[] write = new Disposable[1];
        Flux<ByteBuf> from = source.fusedFinite(1000, i -> i % 2 == 0 ? 10_000 : 60_000);
        Mono<Long> mono = writeManually(from, dir.resolve("out"), (index, position) -> {
            if (index == 5) {
                write[0].dispose(); // lands while the write is in progress
            }
        });
        write[0] = mono.subscribe();

        executor.runAll();

        assertThat(source.cancelled).isTrue();
        assertThat(channel[0].writes).as("none after the cancel").hasValue(5);
        assertThat(channel[0].buffersPerWrite).containsExactly(1, 1, 1, 1, 1);
        assertThat(channel[0].bytesWritten).hasValue(3 * 10_000 + 2 * 60_000);
        assertThat(source.emitted).as("the five written and the one carried").hasSize(6);
        assertThat(source.live()).isZero();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void aFusedSourceThatFailsWhilePolledForABatchFailsTheWriteAndReleasesTheBatch() {
        IllegalStateException boom = new IllegalStateException("map broke");
        AtomicBoolean cancelled = new AtomicBoolean();
        List<ByteBuf> made = new CopyOnWriteArrayList<>();
        Flux<ByteBuf> from = Flux.range(0, 100).map(i -> {
            if (i == 7) {
                throw boom;
            }
            ByteBuf b = ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100);
            made.add(b);
            return b;
        }).doOnCancel(() -> cancelled.set(true));

        StepVerifier.create(writeManually(from, dir.resolve("out"), InstrumentedFileChannel.NONE))
                .then(executor::runAll)
                .expectErrorMatches(e -> e == boom)
                .verify(TIMEOUT);

        assertThat(made).as("seven polled into the first batch").hasSize(7)
                .allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(channel[0].writes).as("the batch failed before its write").hasValue(0);
        assertThat(cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void aFusedSourceThatFailsBetweenBatchesFailsTheWriteAfterWhatWasWritten() {
        IllegalStateException boom = new IllegalStateException("map broke");
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<ByteBuf> from = Flux.range(0, 100).map(i -> {
            if (i == 3) {
                throw boom;
            }
            return ByteBufAllocator.DEFAULT.ioBuffer(100).writeZero(100);
        }).doOnCancel(() -> cancelled.set(true));
        Path out = dir.resolve("out");
        // One item at most: a batch is one chunk and nothing is polled ahead, so the failure comes between batches.
        Mono<Long> mono = FileWriteMono.create(from, out, OPTIONS, false, CHUNKS,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, InstrumentedFileChannel.NONE, channel),
                executor.scheduler(), () -> new GreedDemand(1, 1, 1, 1024 * 1024), 1);

        StepVerifier.create(mono)
                .then(executor::runAll)
                .expectErrorMatches(e -> e == boom)
                .verify(TIMEOUT);

        assertThat(channel[0].buffersPerWrite).containsExactly(1, 1, 1);
        assertThat(cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(out).hasSize(300);
    }

    @Test
    void aSourceThatFusesOnlyAsynchronouslyIsRequested() throws IOException {
        Sinks.Many<ByteBuf> sink = Sinks.many().unicast().onBackpressureBuffer();
        AtomicLong requested = new AtomicLong();
        Flux<ByteBuf> from = sink.asFlux().doOnRequest(requested::addAndGet);
        assertThat(from).as("the test needs a fuseable source").isInstanceOf(Fuseable.class);
        Path out = dir.resolve("out");
        for (int i = 0; i < 3; i++) {
            sink.tryEmitNext(ByteBufAllocator.DEFAULT.ioBuffer(100).writeBytes(ChunkSource.content(i, 100)));
        }
        sink.tryEmitComplete();

        StepVerifier.create(write(from, out, false, InstrumentedFileChannel.NONE, Schedulers.boundedElastic()))
                .expectNext(300L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(requested.get()).as("asked for its chunks").isGreaterThanOrEqualTo(3);
        assertThat(Files.readAllBytes(out)).isEqualTo(ChunkSource.expected(3, i -> 100));
    }
}
