package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[UNSUPPORTED_SETUP]: the server does not support a parameter of the SETUP (lease, resume, version, MIME). */
public class UnsupportedSetupException extends RSocketErrorException {

    public UnsupportedSetupException(String message) {
        super(ErrorCodes.UNSUPPORTED_SETUP, message);
    }

    public UnsupportedSetupException(String message, Throwable cause) {
        super(ErrorCodes.UNSUPPORTED_SETUP, message, cause);
    }
}
