package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[REJECTED_RESUME]: the server refused to resume the session. */
public class RejectedResumeException extends RSocketErrorException {

    public RejectedResumeException(String message) {
        super(ErrorCodes.REJECTED_RESUME, message);
    }

    public RejectedResumeException(String message, Throwable cause) {
        super(ErrorCodes.REJECTED_RESUME, message, cause);
    }
}
