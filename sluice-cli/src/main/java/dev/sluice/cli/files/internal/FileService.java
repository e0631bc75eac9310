package dev.sluice.cli.files.internal;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.files.ReactiveFiles;
import dev.sluice.files.ReadOptions;
import dev.sluice.files.WriteOptions;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Scheduler;

/**
 * The file server's handler for one connection: stores request-channel uploads in, and serves request-stream
 * downloads from, a {@link ServedDirectory}, as {@link TransferProtocol} describes.
 *
 * <h2>Uploads</h2>
 * The first payload names the file; the name is checked before anything is written. The content goes to a
 * {@link StagedFile} beside the target through {@link ReactiveFiles#write}, whose demand <em>is</em> the channel's
 * inbound demand: the REQUEST_N credits the client gets follow completed disk writes, within the writer's window
 * (at most 64 chunks and 1 MiB by default), so a client faster than the disk waits instead of filling memory. On
 * the client's COMPLETE the file is renamed to its name and the answer carries the length and SHA-256 of what was
 * written. On an ERROR or CANCEL from the client, a lost connection or a failure here, the temporary file is
 * deleted and the name is left as it was.
 *
 * <p>The SHA-256 is computed as chunks arrive, on the connection's event loop, so that hashing overlaps the
 * network and the disk instead of costing a second pass over the file once it is written.
 *
 * <h2>Downloads</h2>
 * A header with the file's size, the content read with {@link ReactiveFiles#read} only as the client's REQUEST_N
 * asks for it, then a trailer with the checksum of what was sent (hashed on the reading thread).
 *
 * <h2>Threads</h2>
 * The handler methods run on the event loop and only assemble; everything that touches the file system (name
 * resolution, temporary files, renames, reads, writes) runs on the scheduler, which must tolerate blocking.
 * Thread-safe; one instance per connection (it reports the connection's peer to the {@link TransferListener}).
 */
public final class FileService implements RSocket {

    private final ServedDirectory dir;
    private final boolean fsync;
    private final Scheduler scheduler;
    private final TransferListener listener;
    private final SocketAddress peer;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions;

    /**
     * @param fsync whether to force each upload to the device (file, then directory after the rename) before
     *     answering
     * @param scheduler runs the blocking file work, e.g. {@code FileIoScheduler.shared()}
     * @param peer the connection's remote address, for the listener (may be null)
     */
    public FileService(ServedDirectory dir, boolean fsync, Scheduler scheduler, TransferListener listener,
                       SocketAddress peer) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.fsync = fsync;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.peer = peer;
        // WRITE without CREATE: the staged file exists already, and a write that loses a race with an abort must
        // fail rather than create the deleted file again.
        this.writeOptions = WriteOptions.builder().openOptions(StandardOpenOption.WRITE).fsync(fsync)
            .scheduler(scheduler).build();
        this.readOptions = ReadOptions.builder().scheduler(scheduler).build();
    }

    /** An acceptor that serves every connection with its own {@code FileService}. */
    public static SocketAcceptor acceptor(ServedDirectory dir, boolean fsync, Scheduler scheduler,
                                          TransferListener listener) {
        return (setup, connection) -> Mono.just(
            new FileService(dir, fsync, scheduler, listener, connection.remoteAddress()));
    }

    // --- uploads -----------------------------------------------------------------------------------------------

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads)
            .switchOnFirst((first, all) -> {
                if (first.hasValue()) {
                    return upload(first.get(), all);
                }
                return first.isOnError() ? Flux.error(first.getThrowable()) : Flux.<Payload>empty();
            })
            // The first payload stays with switchOnFirst until the content is subscribed: refused names and early
            // cancels drop it through this hook.
            .doOnDiscard(Payload.class, Payload::release);
    }

    private Flux<Payload> upload(Payload head, Flux<Payload> all) {
        String name = null;
        try {
            name = TransferProtocol.requestedName(head);
            ServedDirectory.check(name);
        } catch (RejectedException e) {
            listener.uploadAborted(peer, name == null ? "" : name, e.getMessage());
            return Flux.error(e);
        }
        Upload upload = new Upload(name);
        Flux<ByteBuf> content = all.handle(upload::content).doOnError(upload::inboundFailed);
        return upload.run(content).map(TransferProtocol::uploadAnswer).flux();
    }

    /** One upload's state: its staged file, its running digest and whether it has been reported. */
    private final class Upload {

        private final String name;
        private final StagedFile staged = new StagedFile(ServedDirectory.TEMP_PREFIX);
        private final RunningDigest digest = new RunningDigest();
        private final AtomicBoolean reported = new AtomicBoolean();
        /** How the inbound side failed (before the cancel that follows), for a better abort reason. */
        private volatile Throwable inboundFailure;

        Upload(String name) {
            this.name = name;
        }

        Mono<Checksum> run(Flux<ByteBuf> content) {
            return Mono.fromCallable(this::create)
                .subscribeOn(scheduler)
                .flatMap(temp -> ReactiveFiles.write(content, temp, writeOptions))
                .flatMap(written -> Mono.fromCallable(() -> commit(written)).subscribeOn(scheduler))
                .onErrorResume(e -> Mono.fromRunnable(() -> abort(reason(e))).subscribeOn(scheduler)
                    .then(Mono.error(answer(name, e, "store"))))
                .doOnCancel(this::abortLater);
        }

        /** The data of each payload, handed on (retained) to the writer; empty ones are dropped. */
        void content(Payload p, SynchronousSink<ByteBuf> sink) {
            try {
                ByteBuf data = p.data();
                if (data.isReadable()) {
                    digest.update(data);
                    sink.next(data.retain());
                }
            } finally {
                p.release();
            }
        }

        void inboundFailed(Throwable e) {
            inboundFailure = e;
        }

        /** The temporary file, or null (an empty Mono) if the upload was aborted first. */
        private Path create() throws IOException {
            try {
                return staged.create(dir.resolveForWriting(name));
            } catch (CancellationException aborted) {
                return null;
            }
        }

        /** Publishes the file; null (an empty Mono) if the upload was aborted first. */
        private Checksum commit(long written) throws IOException {
            Checksum stored = digest.finish();
            if (written != stored.bytes()) {
                throw new IllegalStateException("wrote " + written + " bytes but hashed " + stored.bytes());
            }
            try {
                staged.commit(fsync);
            } catch (CancellationException aborted) {
                return null;
            }
            if (reported.compareAndSet(false, true)) {
                listener.uploadStored(peer, name, stored);
            }
            return stored;
        }

        /** Deletes the temporary file (blocking) and reports the abort once. */
        private void abort(String reason) {
            String why = reason;
            try {
                staged.abort();
            } catch (IOException e) {
                why += "; and the temporary file could not be deleted: " + describe(e);
            }
            if (reported.compareAndSet(false, true)) {
                listener.uploadAborted(peer, name, why);
            }
        }

        /**
         * Why the upload ended without storing: {@code e}, or null for a cancel. A client's ERROR or a lost
         * connection shows up both ways (the writer fails, and the channel is cancelled), whichever comes first:
         * both name it.
         */
        private String reason(Throwable e) {
            Throwable inbound = inboundFailure;
            if (inbound instanceof ConnectionClosedException) {
                return "the connection was lost: " + describe(inbound);
            }
            if (inbound != null) {
                return "the client failed the upload: " + describe(inbound);
            }
            return e == null ? "cancelled by the client" : describe(e);
        }

        /** On cancel, which comes from the event loop: the delete blocks, so it goes to the scheduler. */
        private void abortLater() {
            String reason = reason(null);
            try {
                scheduler.schedule(() -> abort(reason));
            } catch (RejectedExecutionException e) {
                abort(reason); // the scheduler is shutting down; better block the caller than leave the file
            }
        }
    }

    // --- downloads ---------------------------------------------------------------------------------------------

    @Override
    public Flux<Payload> requestStream(Payload request) {
        String name;
        try {
            name = TransferProtocol.requestedName(request);
        } catch (RejectedException e) {
            listener.downloadAborted(peer, "", e.getMessage());
            return Flux.error(e);
        } finally {
            request.release();
        }
        RunningDigest digest = new RunningDigest();
        AtomicBoolean reported = new AtomicBoolean();
        return Mono.fromCallable(() -> open(name))
            .subscribeOn(scheduler)
            .flatMapMany(file -> Flux.concat(
                Mono.fromSupplier(() -> TransferProtocol.downloadHeader(file.size())),
                ReactiveFiles.read(file.path(), readOptions).map(chunk -> {
                    digest.update(chunk);
                    return Payload.create(chunk);
                }),
                Mono.fromSupplier(() -> TransferProtocol.downloadTrailer(digest.finish()))))
            .onErrorMap(e -> answer(name, e, "read"))
            .doOnComplete(() -> {
                if (reported.compareAndSet(false, true)) {
                    listener.downloadSent(peer, name, digest.finish());
                }
            })
            .doOnError(e -> {
                if (reported.compareAndSet(false, true)) {
                    listener.downloadAborted(peer, name, describe(e));
                }
            })
            .doOnCancel(() -> {
                if (reported.compareAndSet(false, true)) {
                    listener.downloadAborted(peer, name, "cancelled by the client or the connection");
                }
            })
            .doOnDiscard(Payload.class, Payload::release);
    }

    private record Opened(Path path, long size) {
    }

    private Opened open(String name) throws IOException {
        Path path = dir.resolveForReading(name);
        return new Opened(path, Files.size(path));
    }

    // --- errors ------------------------------------------------------------------------------------------------

    /**
     * The ERROR a failure is answered with: REJECTED and other protocol errors as they are, a missing file and
     * I/O failures as APPLICATION_ERROR quoting the name (never the server's own paths).
     */
    static RSocketErrorException answer(String name, Throwable e, String action) {
        if (e instanceof RSocketErrorException r) {
            return r;
        }
        if (e instanceof NoSuchFileException) {
            return new ApplicationErrorException("no such file: " + ServedDirectory.quote(name));
        }
        return new ApplicationErrorException("cannot " + action + " " + ServedDirectory.quote(name) + ": "
            + describe(e));
    }

    /** A short reason for {@code e}, without the absolute paths file-system exceptions carry. */
    static String describe(Throwable e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f) {
            return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
