package dev.sluice.core.exceptions;

import dev.sluice.frame.ErrorCodes;

/** An application-defined error code, from {@code 0x301} to {@code 0xFFFFFFFE}, carried in an ERROR frame. */
public class CustomRSocketException extends RSocketErrorException {

    /** @throws IllegalArgumentException when {@code errorCode} is outside the application range */
    public CustomRSocketException(int errorCode, String message) {
        super(checked(errorCode), message);
    }

    private static int checked(int code) {
        if (Integer.compareUnsigned(code, ErrorCodes.MIN_USER_CODE) < 0
            || Integer.compareUnsigned(code, ErrorCodes.MAX_USER_CODE) > 0) {
            throw new IllegalArgumentException("custom error code 0x" + Integer.toHexString(code)
                + " is outside the application range 0x301..0xFFFFFFFE");
        }
        return code;
    }
}
