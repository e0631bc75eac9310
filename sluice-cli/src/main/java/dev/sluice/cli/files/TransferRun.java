package dev.sluice.cli.files;

import dev.sluice.cli.HostPort;
import dev.sluice.cli.files.internal.TransferException;
import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.transport.netty.TcpClientTransport;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * What {@code upload} and {@code download} share: connecting, waiting for the transfer (which Ctrl-C cancels, so
 * the server and the local temporary file are cleaned up), and turning any failure into the one line the command
 * prints before exiting with 1.
 */
final class TransferRun {

    private TransferRun() {
    }

    /** A connection to the file server at {@code target}; fails with "cannot connect to ...". */
    static Connection connect(HostPort target) {
        try {
            return RSocketConnector.create().connect(TcpClientTransport.create(target.host(), target.port()))
                .block();
        } catch (RuntimeException e) {
            throw new IllegalStateException(describe(e, target), e);
        }
    }

    /**
     * Runs {@code transfer} to its end and returns its value. A JVM shutdown (Ctrl-C) meanwhile cancels it, and
     * the cancellation's clean-up runs before the shutdown goes on.
     *
     * @throws IllegalStateException with a one-line message if the transfer failed
     */
    static <T> T await(Mono<T> transfer, HostPort target) {
        CompletableFuture<T> result = transfer.toFuture();
        Thread hook = new Thread(() -> result.cancel(true), "sluice-transfer-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(describe(e.getCause(), target), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.cancel(true);
            throw new IllegalStateException("interrupted", e);
        } catch (CancellationException e) {
            throw new IllegalStateException("cancelled", e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running (or ran): the transfer is cancelled.
            }
        }
    }

    /** One line for a failure: the server's ERROR with its code, the connection, or a local file problem. */
    static String describe(Throwable failure, HostPort target) {
        Throwable e = Exceptions.unwrap(failure);
        if (e instanceof RSocketErrorException r) {
            return "server error " + ErrorCodes.name(r.errorCode()) + ": " + r.getMessage();
        }
        if (e instanceof ConnectionClosedException) {
            return "connection to " + target + " lost: " + e.getMessage();
        }
        if (e instanceof ConnectException) {
            String m = String.valueOf(e.getMessage());
            return m.startsWith("cannot connect") ? m : "cannot connect to " + target + ": " + m;
        }
        if (e instanceof TransferException) {
            return e.getMessage();
        }
        if (e instanceof NoSuchFileException f) {
            return "no such file or directory: " + f.getFile();
        }
        if (e instanceof AccessDeniedException f) {
            return "permission denied: " + f.getFile();
        }
        if (e instanceof FileSystemException f) {
            return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : f.getClass().getSimpleName());
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
