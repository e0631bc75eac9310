package dev.sluice.core.internal.stream;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.exceptions.CanceledException;
import dev.sluice.core.exceptions.ConnectionCloseException;
import dev.sluice.core.exceptions.ConnectionErrorException;
import dev.sluice.core.exceptions.CustomRSocketException;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.exceptions.InvalidSetupException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.exceptions.RejectedResumeException;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.exceptions.UnsupportedSetupException;
import dev.sluice.frame.ErrorCodes;

/** Maps ERROR frames to exceptions and back. */
public final class Errors {

    private Errors() {
    }

    /** What a subscriber gets for a {@code request(n)} with n &lt;= 0 (Reactive Streams rule 3.9). */
    public static IllegalArgumentException badRequest() {
        return new IllegalArgumentException(
            "request(n) needs n > 0 (Reactive Streams rule 3.9); the stream is cancelled");
    }

    /** The exception for a received ERROR frame. */
    public static RSocketErrorException fromFrame(int code, String message) {
        return switch (code) {
            case ErrorCodes.INVALID_SETUP -> new InvalidSetupException(message);
            case ErrorCodes.UNSUPPORTED_SETUP -> new UnsupportedSetupException(message);
            case ErrorCodes.REJECTED_SETUP -> new RejectedSetupException(message);
            case ErrorCodes.REJECTED_RESUME -> new RejectedResumeException(message);
            case ErrorCodes.CONNECTION_ERROR -> new ConnectionErrorException(message);
            case ErrorCodes.CONNECTION_CLOSE -> new ConnectionCloseException(message);
            case ErrorCodes.APPLICATION_ERROR -> new ApplicationErrorException(message);
            case ErrorCodes.REJECTED -> new RejectedException(message);
            case ErrorCodes.CANCELED -> new CanceledException(message);
            case ErrorCodes.INVALID -> new InvalidException(message);
            default -> Integer.compareUnsigned(code, ErrorCodes.MIN_USER_CODE) >= 0
                && Integer.compareUnsigned(code, ErrorCodes.MAX_USER_CODE) <= 0
                ? new CustomRSocketException(code, message)
                : new RSocketErrorException(code, message);
        };
    }

    /** The code a stream ERROR frame carries for a handler's failure: its own if it is a stream-level one. */
    public static int streamCode(Throwable t) {
        if (t instanceof RSocketErrorException e) {
            int c = e.errorCode();
            if (c == ErrorCodes.APPLICATION_ERROR || c == ErrorCodes.REJECTED || c == ErrorCodes.CANCELED
                || c == ErrorCodes.INVALID || Integer.compareUnsigned(c, ErrorCodes.MIN_USER_CODE) >= 0
                && Integer.compareUnsigned(c, ErrorCodes.MAX_USER_CODE) <= 0) {
                return c;
            }
        }
        return ErrorCodes.APPLICATION_ERROR;
    }

    /** The message an ERROR frame carries for {@code t}: never null (peers have broken on null messages). */
    public static String message(Throwable t) {
        String m = t.getMessage();
        return m != null ? m : t.getClass().getName();
    }
}
