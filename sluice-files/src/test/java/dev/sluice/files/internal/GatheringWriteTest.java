package dev.sluice.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * The writer's gathering writes: what is queued goes out in batches bounded in chunks, bytes, NIO buffers and the
 * run's budget, a short write is continued where it stopped, a stuck one fails, and every chunk of a batch is
 * released however the batch ends. Everything runs on the test thread ({@link ManualExecutor}); the bytes on disk
 * are compared with what was sent.
 */
class GatheringWriteTest {

    private static final Set<OpenOption> OPTIONS =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    private static final ByteBufChunks BYTE_BUFS = new ByteBufChunks(ByteBufAllocator.DEFAULT);
    private static final int KIB = 1024;

    @TempDir
    Path dir;

    private final InstrumentedFileChannel[] channel = new InstrumentedFileChannel[1];
    private final ManualExecutor executor = new ManualExecutor();
    private final ManualPublisher<ByteBuf> from = new ManualPublisher<>();

    /** Makes the chunks of one write and checks afterwards that the writer gave each back. */
    private abstract static class Kind<T> {
        final String name;
        final ChunkType<T> type;
        final List<T> made = new ArrayList<>();

        Kind(String name, ChunkType<T> type) {
            this.name = name;
            this.type = type;
        }

        /** A chunk of {@code content}; {@code index} counts from 0. */
        abstract T make(int index, byte[] content);

        /** Whether the writer is done with the chunk: a {@code ByteBuf} released, a {@code ByteBuffer} consumed. */
        abstract boolean givenBack(T chunk);

        T chunk(int index, byte[] content) {
            T chunk = make(index, content);
            made.add(chunk);
            return chunk;
        }

        /** Called once the write has ended; drops what the test itself held. */
        void finish() {
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private abstract static class ByteBufKind extends Kind<ByteBuf> {
        ByteBufKind(String name) {
            super(name, BYTE_BUFS);
        }

        @Override
        boolean givenBack(ByteBuf chunk) {
            return chunk.refCnt() == 0;
        }
    }

    private abstract static class ByteBufferKind extends Kind<ByteBuffer> {
        ByteBufferKind(String name) {
            super(name, ByteBufferChunks.INSTANCE);
        }

        @Override
        boolean givenBack(ByteBuffer chunk) {
            return !chunk.hasRemaining();
        }
    }

    /** A composite of {@code parts} components, direct and heap in turn, splitting {@code content} evenly. */
    private static CompositeByteBuf composite(byte[] content, int parts) {
        CompositeByteBuf c = ByteBufAllocator.DEFAULT.compositeBuffer(parts);
        for (int k = 0; k < parts; k++) {
            int from = (int) ((long) k * content.length / parts);
            int to = (int) ((long) (k + 1) * content.length / parts);
            ByteBuf part = k % 2 == 0 ? ByteBufAllocator.DEFAULT.ioBuffer(to - from)
                    : ByteBufAllocator.DEFAULT.heapBuffer(to - from);
            c.addComponent(true, part.writeBytes(content, from, to - from));
        }
        return c;
    }

    /** One fresh instance of each kind: a kind holds the chunks of one write. */
    private static List<Kind<?>> kinds() {
        return List.of(
                new ByteBufKind("pooled direct ByteBuf") {
                    @Override
                    ByteBuf make(int index, byte[] content) {
                        return ByteBufAllocator.DEFAULT.ioBuffer(content.length).writeBytes(content);
                    }
                },
                new ByteBufKind("unpooled heap ByteBuf, read from an offset") {
                    @Override
                    ByteBuf make(int index, byte[] content) {
                        ByteBuf b = Unpooled.buffer(content.length + 3).writeZero(3).writeBytes(content);
                        return b.skipBytes(3);
                    }
                },
                new ByteBufKind("composite ByteBuf of three components") {
                    @Override
                    ByteBuf make(int index, byte[] content) {
                        return composite(content, 3);
                    }
                },
                new ByteBufKind("retained slices of shared pooled buffers") {
                    private final List<ByteBuf> parents = new ArrayList<>();

                    @Override
                    ByteBuf make(int index, byte[] content) {
                        // Derived buffers at offsets of a shared parent: each view must start at its own offset.
                        ByteBuf parent = parents.isEmpty() ? null : parents.get(parents.size() - 1);
                        if (parent == null || parent.writableBytes() < content.length) {
                            int capacity = Math.max(64 * KIB, content.length);
                            parent = ByteBufAllocator.DEFAULT.ioBuffer(capacity, capacity);
                            parents.add(parent);
                        }
                        int at = parent.writerIndex();
                        parent.writeBytes(content);
                        return parent.retainedSlice(at, content.length);
                    }

                    @Override
                    void finish() {
                        parents.forEach(ByteBuf::release);
                        assertThat(parents).as("every slice released").allSatisfy(p -> assertThat(p.refCnt()).isZero());
                    }
                },
                new ByteBufferKind("heap ByteBuffer") {
                    @Override
                    ByteBuffer make(int index, byte[] content) {
                        return ByteBuffer.wrap(content);
                    }
                },
                new ByteBufferKind("direct ByteBuffer") {
                    @Override
                    ByteBuffer make(int index, byte[] content) {
                        return ByteBuffer.allocateDirect(content.length).put(content).flip();
                    }
                },
                new ByteBufferKind("heap and direct ByteBuffers in turn, read from an offset") {
                    @Override
                    ByteBuffer make(int index, byte[] content) {
                        ByteBuffer b = index % 2 == 0 ? ByteBuffer.allocate(content.length + 5)
                                : ByteBuffer.allocateDirect(content.length + 5);
                        return b.position(5).put(content).flip().position(5);
                    }
                });
    }

    private <T> RecordingSubscriber<Long> start(Publisher<T> source, ChunkType<T> type, GreedDemand demand,
            int maxItems, InstrumentedFileChannel.Hook hook, InstrumentedFileChannel.WriteLimit limit) {
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        FileWriteMono.create(source, dir.resolve("out"), OPTIONS, false, type,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, hook, limit, channel),
                executor.scheduler(), () -> demand, maxItems).subscribe(result);
        result.request(1);
        executor.runAll();
        return result;
    }

    /** Writes {@code count} chunks of {@code kind} as fast as the writer asks, with the default window. */
    private <T> RecordingSubscriber<Long> writeAll(Kind<T> kind, int count, IntUnaryOperator sizeOf,
            InstrumentedFileChannel.WriteLimit limit) {
        Flux<T> source = Flux.range(0, count).map(i -> kind.chunk(i, ChunkSource.content(i, sizeOf.applyAsInt(i))));
        return start(source, kind.type, new GreedDemand(2, 4, 64, 1024 * KIB), 64, InstrumentedFileChannel.NONE,
                limit);
    }

    /** Every kind with every pattern, each row with kinds of its own. */
    private static Stream<Arguments> rows(Object[][] patterns) {
        List<Arguments> rows = new ArrayList<>();
        int kinds = kinds().size();
        for (int k = 0; k < kinds; k++) {
            for (Object[] pattern : patterns) {
                Object[] row = new Object[pattern.length + 1];
                row[0] = kinds().get(k);
                System.arraycopy(pattern, 0, row, 1, pattern.length);
                rows.add(Arguments.of(row));
            }
        }
        return rows.stream();
    }

    static Stream<Arguments> sizesByKind() {
        return rows(new Object[][] {
            {"one byte each", 100, (IntUnaryOperator) i -> 1},
            {"a single chunk", 1, (IntUnaryOperator) i -> 5000},
            {"two chunks", 2, (IntUnaryOperator) i -> 3000},
            {"1000 bytes", 17, (IntUnaryOperator) i -> 1000},
            {"64 KiB", 40, (IntUnaryOperator) i -> 64 * KIB},
            {"1 to 100 KB", 60, (IntUnaryOperator) i -> 1 + (i * 7919) % 100_000},
            {"300 KiB, over the batch limit", 5, (IntUnaryOperator) i -> 300 * KIB},
            {"every third empty", 30, (IntUnaryOperator) i -> i % 3 == 0 ? 0 : 500},
        });
    }

    @ParameterizedTest(name = "[{index}] {0}: {2} x {1}")
    @MethodSource("sizesByKind")
    <T> void bytesOnDiskAreWhatWasSent(Kind<T> kind, String sizes, int count, IntUnaryOperator sizeOf)
            throws IOException {
        RecordingSubscriber<Long> result = writeAll(kind, count, sizeOf, InstrumentedFileChannel.UNLIMITED);
        kind.finish();

        byte[] expected = ChunkSource.expected(count, sizeOf);
        assertThat(result.items).containsExactly((long) expected.length);
        assertThat(result.completed).isTrue();
        assertThat(Files.readAllBytes(dir.resolve("out"))).isEqualTo(expected);
        assertThat(kind.made).hasSize(count).allSatisfy(c -> assertThat(kind.givenBack(c)).isTrue());
        long nonEmpty = IntStream.range(0, count).filter(i -> sizeOf.applyAsInt(i) > 0).count();
        int largest = IntStream.range(0, count).map(sizeOf).max().orElse(0);
        if (count >= 3 && 2L * largest <= GatheringBatch.MAX_BATCH_BYTES) {
            assertThat(channel[0].writes.get()).as("chunks gathered into fewer writes").isLessThan(nonEmpty);
        }
    }

    static Stream<Arguments> limitsByKind() {
        return rows(new Object[][] {
            {1, 20, (IntUnaryOperator) i -> 1 + (i * 31) % 300},
            {1000, 50, (IntUnaryOperator) i -> 1 + (i * 7919) % 5000},
            {65_537, 40, (IntUnaryOperator) i -> 1 + (i * 7919) % 100_000},
        });
    }

    /** Each write takes at most {@code limit} bytes, ending mid-buffer; the writer goes on from there. */
    @ParameterizedTest(name = "[{index}] {0}: at most {1} bytes per write")
    @MethodSource("limitsByKind")
    <T> void shortWritesAreContinuedWhereTheyStopped(Kind<T> kind, int limit, int count, IntUnaryOperator sizeOf)
            throws IOException {
        RecordingSubscriber<Long> result = writeAll(kind, count, sizeOf, index -> limit);
        kind.finish();

        byte[] expected = ChunkSource.expected(count, sizeOf);
        assertThat(result.items).containsExactly((long) expected.length);
        assertThat(Files.readAllBytes(dir.resolve("out"))).isEqualTo(expected);
        assertThat(kind.made).allSatisfy(c -> assertThat(kind.givenBack(c)).isTrue());
        assertThat(channel[0].writes.get()).as("every write was short").isGreaterThanOrEqualTo(
                (expected.length + limit - 1) / limit);
        assertThat(channel[0].buffersPerWrite).as("some continued a gathering write").anyMatch(n -> n > 1);
    }

    /** A chunk spec: {@code COUNTxSIZE}, or {@code COUNTxSIZE/PARTS} for composites of that many components. */
    private static List<ByteBuf> chunks(String spec) {
        List<ByteBuf> chunks = new ArrayList<>();
        int index = 0;
        for (String group : spec.split(" ")) {
            String[] countAndRest = group.split("x");
            String[] sizeAndParts = countAndRest[1].split("/");
            int size = Integer.parseInt(sizeAndParts[0]);
            for (int k = 0; k < Integer.parseInt(countAndRest[0]); k++) {
                byte[] content = ChunkSource.content(index++, size);
                chunks.add(sizeAndParts.length == 1
                        ? ByteBufAllocator.DEFAULT.ioBuffer(size).writeBytes(content)
                        : composite(content, Integer.parseInt(sizeAndParts[1])));
            }
        }
        return chunks;
    }

    private static byte[] contentOf(List<ByteBuf> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b : chunks) {
            byte[] bytes = new byte[b.readableBytes()];
            b.getBytes(b.readerIndex(), bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    /**
     * Writes a first chunk of one byte alone (its write tops the window up to 64), then queues {@code chunks} at
     * once and lets the writer drain them.
     */
    private RecordingSubscriber<Long> writeQueued(ChunkType<ByteBuf> type, List<ByteBuf> chunks,
            InstrumentedFileChannel.Hook hook, InstrumentedFileChannel.WriteLimit limit) {
        return writeQueued(type, chunks, hook, limit, new RecordingSubscriber<>());
    }

    private RecordingSubscriber<Long> writeQueued(ChunkType<ByteBuf> type, List<ByteBuf> chunks,
            InstrumentedFileChannel.Hook hook, InstrumentedFileChannel.WriteLimit limit,
            RecordingSubscriber<Long> result) {
        FileWriteMono.create(from, dir.resolve("out"), OPTIONS, false, type,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, hook, limit, channel),
                executor.scheduler(), () -> new GreedDemand(64, 64, 64, 1L << 40), 64).subscribe(result);
        result.request(1);
        executor.runAll();
        from.emit(ByteBufAllocator.DEFAULT.ioBuffer(1).writeByte(42));
        executor.runAll();
        assertThat(from.requested).as("room for the whole queue").hasValue(65);
        chunks.forEach(from::emit);
        executor.runAll();
        if (result.error == null && !from.cancelled.get()) {
            from.complete();
            executor.runAll();
        }
        return result;
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
        # what                                       | chunks queued at once        | buffers given to each write
        # At most 16 chunks per write; a run writes 32 chunks, then yields and the next run goes on.
        sixteen chunks per write                     | 40x100                       | 16 16 8
        # At most 64 KiB per write: two 25 KiB chunks fit, a third does not.
        at most 64 KiB per write                     | 7x25600                      | 2 2 2 1
        # Exactly 64 KiB fits; a byte more does not.
        exactly the byte limit fits                  | 2x32768 1x1                  | 2 1
        batch full at the byte limit                 | 1x65536 1x1                  | 1 1
        # A chunk over the limit goes, alone.
        an oversized chunk goes alone                | 1x1048576 2x10               | 1 2
        # Composites give a buffer per component: 16 chunks of 3 is 48 buffers, which fit.
        composites of three                          | 30x300/3                     | 48 42
        # 64 buffers in all: twelve composites of 5 fill 60; the 13th waits for the next write.
        composites of five fill the buffer array     | 20x500/5                     | 60 40
        # The budget counts chunks: after 12 + 12, the run has 8 left and writes 8, though 12 would fit.
        the run's budget counts chunks               | 40x500/5                     | 60 60 40 40
        # More buffers than the array holds: written alone, through ChunkType.write (Netty gathers them itself).
        a composite of 100 goes alone                | 2x1000/100 1x10              | 100 100 1
        # Empty chunks need no buffer and no write, but are counted and released.
        empty chunks take no buffer                  | 1x0 1x100 1x0                | 1
        only empty chunks: no write at all           | 2x0                          | ''
        """)
    void batchesAreBoundedInChunksBytesBuffersAndTheRunsBudget(String what, String spec, String buffers)
            throws IOException {
        List<ByteBuf> chunks = chunks(spec);
        byte[] expected = contentOf(chunks);

        RecordingSubscriber<Long> result = writeQueued(BYTE_BUFS, chunks, InstrumentedFileChannel.NONE,
                InstrumentedFileChannel.UNLIMITED);

        List<Integer> perWrite = channel[0].buffersPerWrite;
        assertThat(perWrite.get(0)).as("the first chunk, alone").isEqualTo(1);
        assertThat(perWrite.subList(1, perWrite.size())).as(what).containsExactlyElementsOf(
                buffers.isEmpty() ? List.of() : Arrays.stream(buffers.split(" ")).map(Integer::valueOf).toList());
        assertThat(result.items).containsExactly(1L + expected.length);
        byte[] onDisk = Files.readAllBytes(dir.resolve("out"));
        assertThat(Arrays.copyOfRange(onDisk, 1, onDisk.length)).isEqualTo(expected);
        assertThat(chunks).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void aChunkThatCannotPresentNioBuffersIsWrittenAloneBetweenBatches() throws IOException {
        // Chunks of 77 bytes claim to have no NIO buffers.
        ChunkType<ByteBuf> type = new ForwardingChunks<>(BYTE_BUFS) {
            @Override
            public int nioBufferCount(ByteBuf chunk) {
                return chunk.readableBytes() == 77 ? -1 : super.nioBufferCount(chunk);
            }
        };
        List<ByteBuf> chunks = chunks("1x100 1x77 2x100 1x77");
        byte[] expected = contentOf(chunks);

        RecordingSubscriber<Long> result = writeQueued(type, chunks, InstrumentedFileChannel.NONE,
                InstrumentedFileChannel.UNLIMITED);

        assertThat(channel[0].buffersPerWrite).containsExactly(1, 1, 1, 2, 1);
        assertThat(result.items).containsExactly(1L + expected.length);
        byte[] onDisk = Files.readAllBytes(dir.resolve("out"));
        assertThat(Arrays.copyOfRange(onDisk, 1, onDisk.length)).isEqualTo(expected);
        assertThat(chunks).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void aWriteThatMakesNoProgressFailsAfterSixteenTriesAndReleasesEverything() throws IOException {
        List<ByteBuf> chunks = chunks("10x1000");
        // The first write (the first chunk) goes through; the batch then gets 500 bytes in, and nothing more.
        InstrumentedFileChannel.WriteLimit limit = index -> index == 1 ? Long.MAX_VALUE : index == 2 ? 500 : 0;

        RecordingSubscriber<Long> result = writeQueued(BYTE_BUFS, chunks, InstrumentedFileChannel.NONE, limit);

        Path out = dir.resolve("out");
        assertThat(result.error).isInstanceOf(IOException.class)
                .hasMessage("write made no progress: 16 zero-byte writes at 501 in " + out);
        assertThat(channel[0].writes).as("1 + 1 short + 16 empty").hasValue(18);
        assertThat(chunks).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(out).hasSize(501);
    }

    @Test
    void zeroByteWritesBetweenProgressDoNotAddUp() throws IOException {
        List<ByteBuf> chunks = chunks("30x1000");
        byte[] expected = contentOf(chunks);
        // Fifteen empty writes, then 1000 bytes, over and over: never sixteen in a row.
        InstrumentedFileChannel.WriteLimit limit = index -> index % 16 == 0 ? 1000 : 0;

        RecordingSubscriber<Long> result = writeQueued(BYTE_BUFS, chunks, InstrumentedFileChannel.NONE, limit);

        assertThat(result.error).isNull();
        assertThat(result.items).containsExactly(1L + expected.length);
        byte[] onDisk = Files.readAllBytes(dir.resolve("out"));
        assertThat(Arrays.copyOfRange(onDisk, 1, onDisk.length)).isEqualTo(expected);
        assertThat(chunks).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void aWriteErrorMidBatchReleasesTheBatchAndTheQueue() {
        List<ByteBuf> chunks = chunks("40x100");
        IOException boom = new IOException("disk full");
        // The batch of 16 gets 1000 of its 1600 bytes in, then the disk fails.
        InstrumentedFileChannel.Hook hook = (index, position) -> {
            if (index == 3) {
                throw boom;
            }
        };
        InstrumentedFileChannel.WriteLimit limit = index -> index == 2 ? 1000 : Long.MAX_VALUE;

        RecordingSubscriber<Long> result = writeQueued(BYTE_BUFS, chunks, hook, limit);

        assertThat(result.error).isSameAs(boom);
        assertThat(channel[0].buffersPerWrite).as("first chunk, batch of 16 cut short after 10, its last 6")
                .containsExactly(1, 16, 6);
        assertThat(chunks).as("the batch's 16 and the 24 queued").allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(dir.resolve("out")).hasSize(1001);
    }

    @Test
    void aChunkThatFailsToPresentItsBuffersFailsTheWriteAndEveryChunkIsReleased() {
        IllegalStateException boom = new IllegalStateException("no buffers today");
        ChunkType<ByteBuf> type = new ForwardingChunks<>(BYTE_BUFS) {
            @Override
            public int nioBuffers(ByteBuf chunk, ByteBuffer[] dst, int offset) {
                if (chunk.readableBytes() == 77) {
                    throw boom;
                }
                return super.nioBuffers(chunk, dst, offset);
            }
        };
        List<ByteBuf> chunks = chunks("3x100 1x77 20x100");

        RecordingSubscriber<Long> result = writeQueued(type, chunks, InstrumentedFileChannel.NONE,
                InstrumentedFileChannel.UNLIMITED);

        assertThat(result.error).isSameAs(boom);
        assertThat(channel[0].writes).as("only the first chunk was written").hasValue(1);
        assertThat(chunks).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void cancellingDuringAGatheringWriteLetsItFinishThenReleasesEverything() {
        List<ByteBuf> chunks = chunks("40x100");
        RecordingSubscriber<Long> result = new RecordingSubscriber<>();
        InstrumentedFileChannel.Hook hook = (index, position) -> {
            if (index == 2) {
                result.cancel(); // lands while the batch is being written
            }
        };

        writeQueued(BYTE_BUFS, chunks, hook, InstrumentedFileChannel.UNLIMITED, result);

        assertThat(channel[0].buffersPerWrite).as("no write after the cancelled batch").containsExactly(1, 16);
        assertThat(dir.resolve("out")).as("the batch in progress completed").hasSize(1 + 16 * 100);
        assertThat(chunks).as("the batch's 16 and the 24 queued").allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(from.cancelled).isTrue();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(result.items).isEmpty();
        assertThat(result.error).isNull();
        assertThat(result.completed).isFalse();
    }

    /**
     * Assertions run in these tests (surefire enables them), so every write that completes here has also checked
     * that the channel's position is the byte count, which writing at the channel's position depends on.
     */
    @Test
    void assertionsCheckTheChannelPosition() throws IOException {
        Path out = dir.resolve("out");
        ChannelOpener displaced = (path, options) -> {
            channel[0] = new InstrumentedFileChannel(FileChannel.open(path, options), InstrumentedFileChannel.NONE,
                    InstrumentedFileChannel.NONE, InstrumentedFileChannel.UNLIMITED);
            return channel[0].position(10);
        };
        FileWriteSubscriber<ByteBuf> writer = new FileWriteSubscriber<>(out, OPTIONS, false, BYTE_BUFS, displaced,
                executor.scheduler(), new GreedDemand(2, 4, 64, 1024 * KIB), 64, new WriteListener() {
                    @Override
                    public void onWritten(long bytes) {
                    }

                    @Override
                    public void onFailed(Throwable error) {
                    }
                }, Context.empty());
        from.subscribe(writer);

        // Run the drain here rather than through the scheduler, which would hand the error to a global handler.
        assertThatThrownBy(writer::run).isInstanceOf(AssertionError.class)
                .hasMessage("a newly opened channel is not at position 0: " + out);
        assertThat(from.requested).as("nothing asked for").hasValue(0);
        channel[0].close();
    }
}
