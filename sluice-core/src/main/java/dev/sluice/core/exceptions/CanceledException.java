package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[CANCELED]: the responder cancelled the request; it may have started processing it. */
public class CanceledException extends RSocketErrorException {

    public CanceledException(String message) {
        super(ErrorCodes.CANCELED, message);
    }

    public CanceledException(String message, Throwable cause) {
        super(ErrorCodes.CANCELED, message, cause);
    }
}
