package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/**
 * ERROR[CONNECTION_CLOSE]: the peer is closing the connection gracefully; in-flight streams drain, new ones are
 * refused.
 */
public class ConnectionCloseException extends RSocketErrorException {

    public ConnectionCloseException(String message) {
        super(ErrorCodes.CONNECTION_CLOSE, message);
    }

    public ConnectionCloseException(String message, Throwable cause) {
        super(ErrorCodes.CONNECTION_CLOSE, message, cause);
    }
}
