package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/**
 * An RSocket ERROR frame as an exception: its error code and message. Subclasses name the spec's codes; codes from
 * {@code 0x301} to {@code 0xFFFFFFFE} are the application's own ({@link CustomRSocketException}).
 *
 * <p>Stack traces are not filled in: these travel as protocol signals, and the message says what happened.
 */
public class RSocketErrorException extends RuntimeException {

    private final int errorCode;

    public RSocketErrorException(int errorCode, String message) {
        this(errorCode, message, null);
    }

    public RSocketErrorException(int errorCode, String message, Throwable cause) {
        super(message, cause, false, false);
        this.errorCode = errorCode;
    }

    /** The ERROR frame's code, as defined by the spec ({@code dev.sluice.frame.ErrorCodes}). */
    public final int errorCode() {
        return errorCode;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + " (" + ErrorCodes.name(errorCode) + "): " + getMessage();
    }
}
