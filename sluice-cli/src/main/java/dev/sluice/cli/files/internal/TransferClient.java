package dev.sluice.cli.files.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.files.ReactiveFiles;
import dev.sluice.files.ReadOptions;
import dev.sluice.files.WriteOptions;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.LongConsumer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Scheduler;

/**
 * The client side of {@link TransferProtocol} over one connection: uploads a local file and downloads a served
 * one, each verified against the checksum the server reports.
 *
 * <p>Memory is bounded both ways: an upload reads a chunk only when the server's REQUEST_N asks for one; a
 * download asks for chunks only as the local file writer completes writes. A download is written under a temporary
 * name beside the output ({@value #DOWNLOAD_PREFIX}...) and renamed to it only once its checksum matched, so a
 * failed or cancelled download leaves the output as it was.
 *
 * <p>Thread-safe; each call is an independent, cold {@code Mono}. Progress callbacks come from I/O and event-loop
 * threads, one at a time per transfer.
 */
public final class TransferClient {

    /** How a download's temporary file starts. */
    public static final String DOWNLOAD_PREFIX = ".sluice-download-";

    private final RSocket connection;
    private final Scheduler scheduler;
    private final ReadOptions readOptions;
    private final WriteOptions writeOptions;

    /**
     * @param scheduler runs the blocking file work, e.g. {@code FileIoScheduler.shared()}
     */
    public TransferClient(RSocket connection, Scheduler scheduler) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.readOptions = ReadOptions.builder().scheduler(scheduler).build();
        // WRITE without CREATE: the staged file exists already (see FileService for why).
        this.writeOptions = WriteOptions.builder().openOptions(StandardOpenOption.WRITE).scheduler(scheduler).build();
    }

    /**
     * Uploads {@code file} under {@code name} and yields the checksum both sides agree on.
     *
     * @param progress told the size of each chunk as it is handed to the connection
     * @return fails with the server's ERROR, or a {@link TransferException} if the server stored something else
     *     than what was sent
     */
    public Mono<Checksum> upload(Path file, String name, LongConsumer progress) {
        return Mono.defer(() -> {
            RunningDigest sent = new RunningDigest();
            Flux<Payload> payloads = Flux.concat(
                Mono.fromSupplier(() -> TransferProtocol.uploadHead(name)),
                ReactiveFiles.read(file, readOptions).map(chunk -> {
                    sent.update(chunk);
                    progress.accept(chunk.readableBytes());
                    return Payload.create(chunk);
                }));
            return connection.requestChannel(payloads)
                .map(answer -> {
                    try {
                        return TransferProtocol.parseUploadAnswer(answer);
                    } catch (IllegalArgumentException e) {
                        throw new TransferException("the server's answer to the upload is not a checksum: "
                            + e.getMessage());
                    } finally {
                        answer.release();
                    }
                })
                .collectList()
                .map(answers -> {
                    if (answers.size() != 1) {
                        throw new TransferException("the server answered the upload with " + answers.size()
                            + " payloads; expected one checksum");
                    }
                    // The answer comes after the server saw our COMPLETE, so every chunk has been hashed by now.
                    return verify("sent", sent.finish(), "the server stored", answers.get(0));
                });
        });
    }

    /**
     * Downloads {@code name} into {@code output} and yields its checksum.
     *
     * @param size told the size announced in the header, before any content
     * @param progress told the size of each chunk as it arrives
     * @return fails with the server's ERROR, or a {@link TransferException} if what arrived does not match the
     *     server's trailer; {@code output} is then left as it was
     */
    public Mono<Checksum> download(String name, Path output, LongConsumer size, LongConsumer progress) {
        return Mono.defer(() -> {
            Download download = new Download(size, progress);
            StagedFile staged = new StagedFile(DOWNLOAD_PREFIX);
            Flux<ByteBuf> content = connection.requestStream(TransferProtocol.downloadRequest(name))
                .handle(download::next);
            return Mono.fromCallable(() -> create(staged, output))
                .subscribeOn(scheduler)
                .flatMap(temp -> ReactiveFiles.write(content, temp, writeOptions))
                .flatMap(written -> Mono.fromCallable(() -> {
                    Checksum received = download.finish(written);
                    staged.commit(false);
                    return received;
                }).subscribeOn(scheduler))
                .onErrorResume(e -> Mono.fromCallable(staged::abort).subscribeOn(scheduler)
                    .onErrorResume(IOException.class, deleteFailed -> Mono.empty())
                    .then(Mono.error(e)))
                // A cancel comes from the caller's thread (Ctrl-C), not an event loop: deleting right here makes
                // sure the temporary file is gone before the JVM exits.
                .doOnCancel(() -> abortQuietly(staged));
        });
    }

    private static Path create(StagedFile staged, Path output) throws IOException {
        try {
            return staged.create(output);
        } catch (CancellationException aborted) {
            return null;
        }
    }

    private static void abortQuietly(StagedFile staged) {
        try {
            staged.abort();
        } catch (IOException e) {
            // Nothing left to tell: the transfer is cancelled and its caller gone. The file name says what it is.
        }
    }

    private static Checksum verify(String localWhat, Checksum local, String remoteWhat, Checksum remote) {
        if (!local.equals(remote)) {
            throw new TransferException("checksum mismatch: " + localWhat + " " + local + ", " + remoteWhat + " "
                + remote);
        }
        return local;
    }

    /** One download's state: header, digest of the content, trailer. Confined to the stream's signals. */
    private static final class Download {

        private final LongConsumer size;
        private final LongConsumer progress;
        private final RunningDigest received = new RunningDigest();
        private boolean headerSeen;
        private Checksum trailer;

        Download(LongConsumer size, LongConsumer progress) {
            this.size = size;
            this.progress = progress;
        }

        /** Takes the header and trailer, and hands each chunk's data on (retained) to the file writer. */
        void next(Payload p, SynchronousSink<ByteBuf> sink) {
            try {
                if (!headerSeen) {
                    long announced = TransferProtocol.parseDownloadHeader(p);
                    headerSeen = true;
                    size.accept(announced);
                } else if (trailer != null) {
                    sink.error(new TransferException("the server sent a payload after the checksum trailer: " + p));
                } else if (TransferProtocol.isContent(p)) {
                    ByteBuf data = p.data();
                    received.update(data);
                    progress.accept(data.readableBytes());
                    sink.next(data.retain());
                } else {
                    trailer = TransferProtocol.parseDownloadTrailer(p);
                }
            } catch (IllegalArgumentException e) {
                sink.error(new TransferException("the server broke the download protocol: " + e.getMessage()));
            } finally {
                p.release();
            }
        }

        /** The checksum of what was received, once it is known to match the trailer and what was written. */
        Checksum finish(long written) {
            Checksum local = received.finish();
            if (trailer == null) {
                throw new TransferException("the download ended without the checksum trailer after " + local.bytes()
                    + " bytes");
            }
            if (written != local.bytes()) {
                throw new IllegalStateException("wrote " + written + " bytes but received " + local.bytes());
            }
            return verify("received", local, "the server sent", trailer);
        }
    }
}
