package dev.sluice.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

/**
 * Files read or written one after another, each started as the previous one completes, stay on one thread of a
 * {@link FileIoScheduler} that has idle threads: the next file's first run is a continuation, not a hand-off.
 */
class ThreadLocalityTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int FILES = 50;

    @TempDir
    Path dir;

    private final FileIoScheduler scheduler = FileIoScheduler.create("locality", 4);

    @AfterEach
    void dispose() {
        scheduler.dispose();
    }

    @Test
    void successiveSmallWritesStayOnOneThread() throws IOException {
        WriteOptions options = WriteOptions.builder().scheduler(scheduler).build();
        Set<String> threads = ConcurrentHashMap.newKeySet();

        Long files = Flux.range(0, FILES)
                .concatMap(i -> ReactiveFiles.write(Flux.just(Unpooled.wrappedBuffer(new byte[] {i.byteValue()})),
                        dir.resolve("f" + i), options))
                // The first result is left out: concatMap subscribes to the first write before it passes the
                // downstream's request on, so a write that completes in between has its result emitted on the
                // requesting thread (here the test's) instead of the file thread.
                .skip(1)
                .doOnNext(written -> threads.add(Thread.currentThread().getName()))
                .count()
                .block(TIMEOUT);

        assertThat(files).isEqualTo(FILES - 1);
        assertThat(threads).singleElement().asString().startsWith("locality-");
        for (int i = 0; i < FILES; i++) {
            assertThat(Files.readAllBytes(dir.resolve("f" + i))).containsExactly((byte) i);
        }
    }

    @Test
    void successiveSmallReadsStayOnOneThread() throws IOException {
        for (int i = 0; i < FILES; i++) {
            Files.write(dir.resolve("f" + i), new byte[] {(byte) i});
        }
        ReadOptions options = ReadOptions.builder().scheduler(scheduler).build();
        Set<String> threads = ConcurrentHashMap.newKeySet();

        Long sum = Flux.range(0, FILES)
                .concatMap(i -> ReactiveFiles.read(dir.resolve("f" + i), options))
                .doOnNext(chunk -> threads.add(Thread.currentThread().getName()))
                .map(chunk -> {
                    try {
                        return (long) chunk.getByte(0);
                    } finally {
                        chunk.release();
                    }
                })
                .reduce(0L, Long::sum)
                .block(TIMEOUT);

        assertThat(sum).isEqualTo((long) FILES * (FILES - 1) / 2);
        assertThat(threads).singleElement().asString().startsWith("locality-");
    }
}
