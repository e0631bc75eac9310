package dev.sluice.bench.files;

import dev.sluice.files.ReactiveFiles;
import dev.sluice.files.WriteOptions;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import reactor.core.publisher.Flux;

/** {@link ReactiveFiles#write} with its default options: chunks as {@code ByteBuf} views, released once written. */
final class SluiceTarget implements WriteTarget {

    private final ChunkData data;

    SluiceTarget(ChunkData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "Sluice";
    }

    @Override
    public CompletionStage<?> write(Path file, long size) {
        Flux<io.netty.buffer.ByteBuf> chunks = Flux.range(0, data.chunks(size))
                .map(i -> Unpooled.wrappedBuffer(data.chunk(size, i)));
        return ReactiveFiles.write(chunks, file, WriteOptions.defaults()).toFuture();
    }
}
