package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[REJECTED]: the responder did not process the request (over its lease, rate limit or stream limit). */
public class RejectedException extends RSocketErrorException {

    public RejectedException(String message) {
        super(ErrorCodes.REJECTED, message);
    }

    public RejectedException(String message, Throwable cause) {
        super(ErrorCodes.REJECTED, message, cause);
    }
}
