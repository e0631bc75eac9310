package dev.sluice.cli.files.internal;

/**
 * A transfer that went wrong in a way the client detects itself: a checksum that does not match, an answer that
 * breaks {@link TransferProtocol}. The message is one line that says what was expected and what came.
 *
 * <p>No stack trace: the message is the whole story.
 */
public final class TransferException extends RuntimeException {

    public TransferException(String message) {
        super(message, null, false, false);
    }
}
