package dev.sluice.files.internal;

import dev.sluice.files.FileIoScheduler;
import java.io.IOException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import reactor.util.context.Context;

/**
 * The TCK's {@link SubscriberWhiteboxVerification} for the file writer, each subscriber writing its own file.
 *
 * <p>The probe sees every signal as the writer receives it. Of the puppet, {@code signalCancel} cancels the writer
 * as a downstream cancel would; {@code triggerRequest} does nothing, because the writer decides its demand itself
 * (from completed writes) and nothing outside can make it ask for more. The TCK's {@code expectRequest} therefore
 * observes the writer's own requests, and the writer's rule that a source may not exceed its demand stays on.
 */
abstract class WriterTck<T> extends SubscriberWhiteboxVerification<T> {

    private static final Set<OpenOption> OPTIONS =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    private static final WriteListener IGNORED = new WriteListener() {
        @Override
        public void onWritten(long bytes) {
        }

        @Override
        public void onFailed(Throwable error) {
        }
    };

    private final ChunkType<T> chunks;
    private final AtomicInteger files = new AtomicInteger();
    private Path dir;

    WriterTck(ChunkType<T> chunks) {
        super(TckSupport.environment());
        this.chunks = chunks;
    }

    @BeforeClass
    public void createDirectory() throws IOException {
        dir = TckSupport.createDirectory();
    }

    @AfterClass(alwaysRun = true)
    public void deleteDirectory() throws IOException {
        TckSupport.deleteRecursively(dir);
    }

    @Override
    public Subscriber<T> createSubscriber(WhiteboxSubscriberProbe<T> probe) {
        FileWriteSubscriber<T> writer = new FileWriteSubscriber<>(dir.resolve("file-" + files.incrementAndGet()),
                OPTIONS, false, chunks, ChannelOpener.DEFAULT, FileIoScheduler.shared(),
                new GreedDemand(2, 4, 64, 1024 * 1024), 64, IGNORED, Context.empty());
        return new Subscriber<>() {
            private boolean subscribed;

            @Override
            public void onSubscribe(Subscription s) {
                writer.onSubscribe(s);
                if (!subscribed) {
                    subscribed = true;
                    probe.registerOnSubscribe(new SubscriberPuppet() {
                        @Override
                        public void triggerRequest(long elements) {
                            // The writer makes its own demand; see the class comment.
                        }

                        @Override
                        public void signalCancel() {
                            writer.cancel();
                        }
                    });
                }
            }

            @Override
            public void onNext(T element) {
                // Registered first: once handed over, the element may be written and released at any moment.
                probe.registerOnNext(element);
                writer.onNext(element);
            }

            @Override
            public void onError(Throwable t) {
                writer.onError(t);
                probe.registerOnError(t);
            }

            @Override
            public void onComplete() {
                writer.onComplete();
                probe.registerOnComplete();
            }
        };
    }
}
