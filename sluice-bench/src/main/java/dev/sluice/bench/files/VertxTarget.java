package dev.sluice.bench.files;

import io.netty.buffer.Unpooled;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/**
 * Vert.x {@link AsyncFile} fed the way Vert.x's own Reactive Streams bridges feed a {@code WriteStream}
 * ({@code WriteStreamSubscriberImpl} in vertx-rx / vertx-reactive-streams, which vertx-core does not ship): request
 * 16, and once those are handed over request 16 more unless the write queue (128 KiB by default) is full, in which
 * case wait for its drain handler.
 */
final class VertxTarget implements WriteTarget {

    private static final int BATCH_SIZE = 16;

    private final ChunkData data;
    private final Vertx vertx = Vertx.vertx();

    VertxTarget(ChunkData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "Vert.x AsyncFile";
    }

    @Override
    public CompletionStage<?> write(Path file, long size) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        OpenOptions options = new OpenOptions().setCreate(true).setTruncateExisting(true).setWrite(true);
        vertx.fileSystem().open(file.toString(), options).onComplete(opened -> {
            if (opened.failed()) {
                done.completeExceptionally(opened.cause());
                return;
            }
            Flux.range(0, data.chunks(size))
                    .map(i -> Buffer.buffer(Unpooled.wrappedBuffer(data.chunk(size, i))))
                    .subscribe(new FileSubscriber(opened.result(), done));
        });
        return done;
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static final class FileSubscriber extends BaseSubscriber<Buffer> {
        private final AsyncFile file;
        private final CompletableFuture<Void> done;
        private int outstanding;

        FileSubscriber(AsyncFile file, CompletableFuture<Void> done) {
            this.file = file;
            this.done = done;
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            file.exceptionHandler(this::fail);
            requestBatch();
        }

        private synchronized void requestBatch() {
            outstanding = BATCH_SIZE;
            request(BATCH_SIZE);
        }

        @Override
        protected void hookOnNext(Buffer value) {
            file.write(value);
            boolean batchDone;
            synchronized (this) {
                batchDone = --outstanding == 0;
            }
            if (batchDone) {
                if (file.writeQueueFull()) {
                    file.drainHandler(v -> requestBatch());
                } else {
                    requestBatch();
                }
            }
        }

        @Override
        protected void hookOnComplete() {
            file.close().onComplete(closed -> {
                if (closed.succeeded()) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(closed.cause());
                }
            });
        }

        @Override
        protected void hookOnError(Throwable throwable) {
            fail(throwable);
        }

        private void fail(Throwable t) {
            file.close();
            done.completeExceptionally(t);
        }
    }
}
