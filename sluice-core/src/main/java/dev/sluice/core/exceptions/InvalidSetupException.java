package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[INVALID_SETUP]: the SETUP frame was malformed or not the first frame. */
public class InvalidSetupException extends RSocketErrorException {

    public InvalidSetupException(String message) {
        super(ErrorCodes.INVALID_SETUP, message);
    }

    public InvalidSetupException(String message, Throwable cause) {
        super(ErrorCodes.INVALID_SETUP, message, cause);
    }
}
