package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** ERROR[CONNECTION_ERROR]: the connection failed and was closed; in-flight streams failed with it. */
public class ConnectionErrorException extends RSocketErrorException {

    public ConnectionErrorException(String message) {
        super(ErrorCodes.CONNECTION_ERROR, message);
    }

    public ConnectionErrorException(String message, Throwable cause) {
        super(ErrorCodes.CONNECTION_ERROR, message, cause);
    }
}
