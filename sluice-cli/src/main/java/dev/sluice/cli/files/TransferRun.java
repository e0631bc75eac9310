package dev.sluice.cli.files;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.ClientSecurityOptions;
import dev.sluice.cli.address.ConnectionEnd;
import dev.sluice.cli.files.internal.TransferException;
import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.core.transport.ClientTransport;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
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

    /** The transport's own default: a file transfer has no option for it. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private TransferRun() {
    }

    /**
     * A connection to the file server at {@code target}, as {@code security} says; fails with "cannot connect to
     * ...". Usage errors ({@link IllegalArgumentException}) are checked first, before anything is sent.
     */
    static Connection connect(Address target, ClientSecurityOptions security, PrintWriter err, String command) {
        ClientTransport transport = security.transport("--target", target, CONNECT_TIMEOUT);
        String warning = security.warning(target);
        if (warning != null) {
            err.println("sluice " + command + ": " + warning);
            err.flush();
        }
        try {
            return security.apply(RSocketConnector.create()).connect(transport).block();
        } catch (RuntimeException e) {
            throw new IllegalStateException(describe(e, target), e);
        }
    }

    /**
     * Runs {@code transfer} to its end and returns its value. A JVM shutdown (Ctrl-C) meanwhile cancels it, and
     * the cancellation's clean-up runs before the shutdown goes on. The connection ending first (a server that
     * refused the SETUP, a lost connection) fails it with the reason.
     *
     * @throws IllegalStateException with a one-line message if the transfer failed
     */
    static <T> T await(Mono<T> transfer, Connection connection, Address target) {
        // Raced against the connection's end: a stream the connection could never carry must not wait forever.
        Mono<T> ended = connection.onClose().onErrorResume(e -> Mono.empty())
            .then(Mono.error(() -> new IllegalStateException(ConnectionEnd.describe(target,
                connection.closeCause()))));
        CompletableFuture<T> result = Mono.firstWithSignal(transfer, ended).toFuture();
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
    static String describe(Throwable failure, Address target) {
        Throwable e = Exceptions.unwrap(failure);
        if (e instanceof RejectedSetupException) {
            return ConnectionEnd.describe(target, e);
        }
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
        if (e instanceof TransferException || e instanceof IllegalStateException) {
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
