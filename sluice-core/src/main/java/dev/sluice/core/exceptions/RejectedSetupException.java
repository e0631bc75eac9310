package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[REJECTED_SETUP]: the server's acceptor refused the connection. Fail an acceptor's Mono with this to reject. */
public class RejectedSetupException extends RSocketErrorException {

    public RejectedSetupException(String message) {
        super(ErrorCodes.REJECTED_SETUP, message);
    }

    public RejectedSetupException(String message, Throwable cause) {
        super(ErrorCodes.REJECTED_SETUP, message, cause);
    }
}
