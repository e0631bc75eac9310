package dev.sluice.bench.files;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletionStage;
import org.cqfn.rio.file.File;
import reactor.core.publisher.Flux;

/**
 * rio 0.3 ({@code org.cqfn:rio}), {@code File.write} with its default (adaptive) greed and executor, opened with
 * the same options as the others (rio's own default lacks {@code TRUNCATE_EXISTING}).
 */
final class RioTarget implements WriteTarget {

    private final ChunkData data;

    RioTarget(ChunkData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "rio 0.3";
    }

    @Override
    public CompletionStage<?> write(Path file, long size) {
        Flux<ByteBuffer> chunks = Flux.range(0, data.chunks(size)).map(i -> data.chunk(size, i));
        return new File(file).write(chunks, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
    }
}
