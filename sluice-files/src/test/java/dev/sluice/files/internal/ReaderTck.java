package dev.sluice.files.internal;

import dev.sluice.files.FileIoScheduler;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The TCK's {@link PublisherVerification} for the file reader: a publisher of {@code n} elements is a file of
 * {@code n} one-byte chunks. Files are sparse (only their length is set), so the TCK's largest request, a stream of
 * {@link Integer#MAX_VALUE} elements, costs no disk.
 */
abstract class ReaderTck<T> extends PublisherVerification<T> {

    private static final int CHUNK = 1;

    private final ChunkType<T> chunks;
    private final AtomicInteger files = new AtomicInteger();
    private Path dir;

    ReaderTck(ChunkType<T> chunks) {
        super(TckSupport.environment(), 500);
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
    public Publisher<T> createPublisher(long elements) {
        Path file = dir.resolve("file-" + files.incrementAndGet());
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(elements * CHUNK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return FileReadFlux.create(file, chunks, CHUNK, ChannelOpener.DEFAULT, FileIoScheduler.shared());
    }

    @Override
    public Publisher<T> createFailedPublisher() {
        return FileReadFlux.create(dir.resolve("missing"), chunks, CHUNK, ChannelOpener.DEFAULT,
                FileIoScheduler.shared());
    }

    @Override
    public long maxElementsFromPublisher() {
        return Integer.MAX_VALUE;
    }
}
