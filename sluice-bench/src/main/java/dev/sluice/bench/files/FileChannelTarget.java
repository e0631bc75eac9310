package dev.sluice.bench.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The ceiling: no streams, no demand, just a blocking {@code FileChannel} loop of positional writes, one thread per
 * file in flight (a fixed pool as large as the row's parallelism).
 */
final class FileChannelTarget implements WriteTarget {

    private final ChunkData data;
    private ExecutorService pool;

    FileChannelTarget(ChunkData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "FileChannel loop (ceiling)";
    }

    @Override
    public void prepare(int parallelism) {
        close();
        pool = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "ceiling");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public CompletionStage<?> write(Path file, long size) {
        return CompletableFuture.runAsync(() -> {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                long position = 0;
                for (int i = 0; i < data.chunks(size); i++) {
                    ByteBuffer view = data.chunk(size, i);
                    while (view.hasRemaining()) {
                        position += ch.write(view, position);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, pool);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
            pool = null;
        }
    }
}
