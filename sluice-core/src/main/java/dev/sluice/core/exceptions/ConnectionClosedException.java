package dev.sluice.core.exceptions;

/**
 * The connection closed (locally, by the peer, or on a keep-alive timeout) before the stream finished. Local to
 * this side: no ERROR frame carries it.
 */
public final class ConnectionClosedException extends RuntimeException {

    public ConnectionClosedException(String message) {
        super(message, null, false, false);
    }

    public ConnectionClosedException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
