package dev.sluice.bench.files;

import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletionStage;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;

/**
 * Spring's {@link DataBufferUtils#write(org.reactivestreams.Publisher, Path, java.nio.file.OpenOption...)}: an
 * {@code AsynchronousFileChannel} on the JDK's default pool, one write in flight, {@code request(1)} after each.
 */
final class SpringTarget implements WriteTarget {

    private final ChunkData data;

    SpringTarget(ChunkData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "Spring DataBufferUtils";
    }

    @Override
    public CompletionStage<?> write(Path file, long size) {
        Flux<DataBuffer> chunks = Flux.range(0, data.chunks(size))
                .map(i -> DefaultDataBufferFactory.sharedInstance.wrap(data.chunk(size, i)));
        return DataBufferUtils.write(chunks, file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE).toFuture();
    }
}
