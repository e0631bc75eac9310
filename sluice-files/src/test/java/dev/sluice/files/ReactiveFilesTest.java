package dev.sluice.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

class ReactiveFilesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    @Test
    void copyProducesAByteIdenticalFile() throws Exception {
        // 5 MiB and a bit: many full 64 KiB chunks, many window top-ups, and a short last chunk.
        Path source = Files.write(dir.resolve("source"), randomBytes(5 * 1024 * 1024 + 12_345, 7));
        Path target = dir.resolve("target");

        StepVerifier.create(ReactiveFiles.copy(source, target))
                .expectNext(Files.size(source))
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(sha256(target)).isEqualTo(sha256(source));
    }

    @Test
    void copyWithSmallChunksAndATinyWindowStillCopiesEverything() throws Exception {
        Path source = Files.write(dir.resolve("source"), randomBytes(100_003, 11));
        Path target = dir.resolve("target");
        ReadOptions read = ReadOptions.builder().chunkSize(997).build();
        WriteOptions write = WriteOptions.builder().maxItemsInFlight(1).maxBytesInFlight(1).fsync(true).build();

        StepVerifier.create(ReactiveFiles.copy(source, target, read, write))
                .expectNext(100_003L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(sha256(target)).isEqualTo(sha256(source));
    }

    @Test
    void writeTruncatesAnExistingFileByDefault() throws IOException {
        Path target = Files.write(dir.resolve("target"), randomBytes(10_000, 3));
        ByteBuf data = ByteBufAllocator.DEFAULT.ioBuffer(100).writeBytes(randomBytes(100, 4));

        StepVerifier.create(ReactiveFiles.write(Flux.just(data), target))
                .expectNext(100L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(Files.readAllBytes(target)).isEqualTo(randomBytes(100, 4));
        assertThat(data.refCnt()).as("released once written").isZero();
    }

    @Test
    void writeWithoutTruncationOverwritesInPlace() throws IOException {
        Path target = Files.write(dir.resolve("target"), new byte[10]);
        WriteOptions options = WriteOptions.builder().openOptions(StandardOpenOption.WRITE).build();

        StepVerifier.create(ReactiveFiles.write(Flux.just(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})), target,
                options))
                .expectNext(3L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(Files.readAllBytes(target)).containsExactly(1, 2, 3, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void byteBuffersRoundTrip() throws IOException {
        Path source = Files.write(dir.resolve("source"), randomBytes(70_000, 5));
        Path target = dir.resolve("target");
        ReadOptions read = ReadOptions.builder().chunkSize(4096).build();

        Flux<ByteBuffer> chunks = ReactiveFiles.readByteBuffers(source, read);
        StepVerifier.create(ReactiveFiles.writeByteBuffers(chunks, target, WriteOptions.defaults()))
                .expectNext(70_000L)
                .expectComplete()
                .verify(TIMEOUT);

        assertThat(Files.readAllBytes(target)).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void eachSubscriptionReadsTheWholeFile() throws IOException {
        Path source = Files.write(dir.resolve("source"), randomBytes(200_000, 9));
        Flux<ByteBuf> read = ReactiveFiles.read(source);

        for (int i = 0; i < 2; i++) {
            StepVerifier.create(read.map(b -> {
                int n = b.readableBytes();
                b.release();
                return n;
            }).reduce(0, Integer::sum))
                    .expectNext(200_000)
                    .expectComplete()
                    .verify(TIMEOUT);
        }
    }
}
