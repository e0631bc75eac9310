package dev.sluice.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

class FileReadFluxTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final InstrumentedFileChannel[] channel = new InstrumentedFileChannel[1];
    private final TrackingChunks chunks = new TrackingChunks();
    private final ManualExecutor executor = new ManualExecutor();

    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private Path file(int size) throws IOException {
        return Files.write(dir.resolve("in-" + size), randomBytes(size, size));
    }

    private Flux<ByteBuf> read(Path path, int chunkSize, InstrumentedFileChannel.Hook beforeRead) {
        return FileReadFlux.create(path, chunks, chunkSize,
                InstrumentedFileChannel.opener(beforeRead, InstrumentedFileChannel.NONE, channel),
                executor.scheduler());
    }

    private static byte[] concat(List<ByteBuf> bufs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b : bufs) {
            out.writeBytes(ByteBufUtil.getBytes(b));
        }
        return out.toByteArray();
    }

    private static void releaseAll(List<ByteBuf> bufs) {
        bufs.forEach(ByteBuf::release);
    }

    @Test
    void readsChunksOfTheConfiguredSizeThenWhatIsLeftOnePositionalReadAtATime() throws IOException {
        Path in = file(10_000);
        Flux<ByteBuf> flux = FileReadFlux.create(in, chunks, 4096,
                InstrumentedFileChannel.opener(InstrumentedFileChannel.NONE, InstrumentedFileChannel.NONE, channel),
                Schedulers.boundedElastic());

        List<ByteBuf> got = flux.collectList().block(TIMEOUT);

        try {
            assertThat(got).extracting(ByteBuf::readableBytes).containsExactly(4096, 4096, 1808);
            assertThat(concat(got)).isEqualTo(Files.readAllBytes(in));
            assertThat(channel[0].maxInProgress).hasValue(1);
            assertThat(channel[0].closes).hasValue(1);
        } finally {
            releaseAll(got);
        }
    }

    @Test
    void readsOnlyAsManyChunksAsRequested() throws IOException {
        Path in = file(500);
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        read(in, 100, InstrumentedFileChannel.NONE).subscribe(s);

        executor.runAll();
        assertThat(channel[0].reads).as("opened, but no demand yet").hasValue(0);

        s.request(2);
        executor.runAll();
        assertThat(s.items).hasSize(2);
        assertThat(channel[0].reads).hasValue(2);

        executor.runAll();
        assertThat(channel[0].reads).as("no read-ahead beyond demand").hasValue(2);
        assertThat(s.completed).isFalse();

        s.request(10);
        executor.runAll();
        try {
            assertThat(s.items).hasSize(5);
            assertThat(s.completed).as("the end is known from the size: no demand needed to complete").isTrue();
            assertThat(concat(s.items)).isEqualTo(Files.readAllBytes(in));
            assertThat(channel[0].reads).hasValue(5);
            assertThat(channel[0].closes).hasValue(1);
        } finally {
            releaseAll(s.items);
        }
    }

    @Test
    void requestsMadeInsideOnSubscribeWaitUntilItReturns() throws IOException {
        Path in = file(300);
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>() {
            @Override
            protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
                assertThat(items).as("nothing is emitted from inside onSubscribe").isEmpty();
            }
        };
        read(in, 100, InstrumentedFileChannel.NONE).subscribe(s);
        assertThat(executor.pending()).isEqualTo(1);

        executor.runAll();

        try {
            assertThat(s.items).hasSize(3);
            assertThat(s.completed).isTrue();
        } finally {
            releaseAll(s.items);
        }
    }

    @Test
    void anEmptyFileCompletesWithoutDemand() throws IOException {
        Path in = file(0);
        Flux<ByteBuf> flux = FileReadFlux.create(in, chunks, 100, ChannelOpener.DEFAULT, Schedulers.boundedElastic());

        StepVerifier.create(flux, 0).expectSubscription().expectComplete().verify(TIMEOUT);

        assertThat(chunks.allocated).isEmpty();
    }

    @Test
    void aMissingFileFailsWithoutDemand() {
        Flux<ByteBuf> flux = FileReadFlux.create(dir.resolve("missing"), chunks, 100, ChannelOpener.DEFAULT,
                Schedulers.boundedElastic());

        StepVerifier.create(flux, 0).expectSubscription().expectError(NoSuchFileException.class).verify(TIMEOUT);
    }

    @Test
    void aCancelWhileIdleClosesTheFile() throws IOException {
        Path in = file(500);
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        read(in, 100, InstrumentedFileChannel.NONE).subscribe(s);
        s.request(1);
        executor.runAll();
        assertThat(s.items).hasSize(1);
        assertThat(channel[0].closes).hasValue(0);

        s.cancel();
        executor.runAll();

        releaseAll(s.items);
        assertThat(channel[0].closes).hasValue(1);
        assertThat(chunks.live()).isZero();
        assertThat(s.completed).isFalse();
        assertThat(s.error).isNull();
    }

    @Test
    void aCancelDuringAReadReleasesTheChunkInsteadOfDeliveringIt() throws IOException {
        Path in = file(500);
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        read(in, 100, (index, position) -> {
            if (index == 2) {
                s.cancel(); // as if the cancel came from another thread while the read was in progress
            }
        }).subscribe(s);
        s.request(3);

        executor.runAll();

        releaseAll(s.items);
        assertThat(s.items).hasSize(1);
        assertThat(chunks.allocated).hasSize(2);
        assertThat(chunks.live()).as("the chunk read during the cancel was released").isZero();
        assertThat(channel[0].closes).hasValue(1);
        assertThat(channel[0].reads).hasValue(2);
    }

    @Test
    void aReadErrorFailsTheSubscriberReleasesTheChunkAndClosesTheFile() throws IOException {
        Path in = file(500);
        IOException boom = new IOException("disk on fire");
        Flux<ByteBuf> flux = read(in, 100, (index, position) -> {
            if (index == 2) {
                throw boom;
            }
        });
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        flux.subscribe(s);
        s.request(5);

        executor.runAll();

        releaseAll(s.items);
        assertThat(s.items).hasSize(1);
        assertThat(s.error).isSameAs(boom);
        assertThat(chunks.live()).isZero();
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void aNonPositiveRequestFailsTheSubscriberCitingRule309() throws IOException {
        Path in = file(500);
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        read(in, 100, InstrumentedFileChannel.NONE).subscribe(s);
        s.request(1);
        executor.runAll();

        s.rawRequest(0);
        executor.runAll();

        releaseAll(s.items);
        assertThat(s.error).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("request(n) with n <= 0 (Reactive Streams rule 3.9): 0");
        assertThat(channel[0].closes).hasValue(1);
    }

    @Test
    void aFileThatShrinksWhileReadEndsWithAShortChunk() throws IOException {
        Path in = file(300);
        Flux<ByteBuf> flux = read(in, 100, (index, position) -> {
            if (index == 2) {
                try (FileChannel c = FileChannel.open(in, StandardOpenOption.WRITE)) {
                    c.truncate(150);
                }
            }
        });
        RecordingSubscriber<ByteBuf> s = new RecordingSubscriber<>();
        flux.subscribe(s);
        s.request(10);

        executor.runAll();

        try {
            assertThat(s.items).extracting(ByteBuf::readableBytes).containsExactly(100, 50);
            assertThat(s.completed).isTrue();
            assertThat(chunks.live()).isEqualTo(2);
        } finally {
            releaseAll(s.items);
        }
    }

    @Test
    void readsByteBufferChunks() throws IOException {
        Path in = file(1000);
        Flux<ByteBuffer> flux = FileReadFlux.create(in, ByteBufferChunks.INSTANCE, 300, ChannelOpener.DEFAULT,
                Schedulers.boundedElastic());

        List<ByteBuffer> got = flux.collectList().block(TIMEOUT);

        assertThat(got).extracting(ByteBuffer::remaining).containsExactly(300, 300, 300, 100);
        ByteBuffer all = ByteBuffer.allocate(1000);
        got.forEach(all::put);
        assertThat(all.array()).isEqualTo(Files.readAllBytes(in));
    }
}
