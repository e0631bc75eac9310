package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[APPLICATION_ERROR]: the responder's handler failed; the message is the handler's. */
public class ApplicationErrorException extends RSocketErrorException {

    public ApplicationErrorException(String message) {
        super(ErrorCodes.APPLICATION_ERROR, message);
    }

    public ApplicationErrorException(String message, Throwable cause) {
        super(ErrorCodes.APPLICATION_ERROR, message, cause);
    }
}
