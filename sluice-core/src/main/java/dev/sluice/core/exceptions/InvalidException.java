package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[INVALID]: the request was invalid (for example, more payloads than the granted demand). */
public class InvalidException extends RSocketErrorException {

    public InvalidException(String message) {
        super(ErrorCodes.INVALID, message);
    }

    public InvalidException(String message, Throwable cause) {
        super(ErrorCodes.INVALID, message, cause);
    }
}
