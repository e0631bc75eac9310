package dev.sluice.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

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
    void successiveSmallWritesStayOnOneThread() throws Exception {
        WriteOptions options = WriteOptions.builder().scheduler(scheduler).build();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Mono<Long> files = Flux.range(0, FILES)
                .concatMap(i -> ReactiveFiles.write(Flux.just(Unpooled.wrappedBuffer(new byte[] {i.byteValue()})),
                        dir.resolve("f" + i), options))
                .doOnNext(result -> threads.add(Thread.currentThread().getName()))
                .count();

        // Started by a task of the scheduler, so that the first write, and the request that reaches it, come from
        // one of its lanes and the test's thread does nothing after. Started from the test's thread (as it was until
        // a CI run saw the files' results on two threads, once), the first file's tasks can land on two lanes (its
        // subscription's on one, a signal's on the least loaded other), and the second, going idle as the first
        // queues its next continuation, may take that continuation, as an idle lane is meant to.
        CompletableFuture<Long> written = new CompletableFuture<>();
        scheduler.schedule(() -> files.subscribe(written::complete, written::completeExceptionally));

        assertThat(written.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo((long) FILES);
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
