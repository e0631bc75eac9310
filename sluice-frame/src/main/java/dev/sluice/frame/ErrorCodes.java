package dev.sluice.frame;

/**
 * The 32-bit error codes carried by ERROR frames.
 *
 * <p>Codes 0x001..0x102 concern the connection and travel on stream 0; 0x201..0x204 concern one stream and travel
 * on that stream. 0x00000001..0x00000300 are reserved for the protocol, {@link #MIN_USER_CODE}..
 * {@link #MAX_USER_CODE} (compared unsigned) belong to applications, and 0x00000000 and 0xFFFFFFFF are reserved.
 *
 * <p>Constants and pure functions only; thread-safe. {@link #name(int)} allocates nothing for protocol codes.
 */
public final class ErrorCodes {

    /** The SETUP frame is invalid for the server (stream 0). */
    public static final int INVALID_SETUP = 0x001;
    /** Some SETUP parameter is not supported by the server (stream 0). */
    public static final int UNSUPPORTED_SETUP = 0x002;
    /** The server rejected the SETUP (stream 0). */
    public static final int REJECTED_SETUP = 0x003;
    /** The server rejected the RESUME (stream 0). */
    public static final int REJECTED_RESUME = 0x004;
    /** The connection is being terminated at once, outstanding streams fail (stream 0). */
    public static final int CONNECTION_ERROR = 0x101;
    /** The connection is being closed gracefully: outstanding streams drain first (stream 0). */
    public static final int CONNECTION_CLOSE = 0x102;
    /** Application-level failure of a stream. */
    public static final int APPLICATION_ERROR = 0x201;
    /** The responder rejected the request and guarantees it did not process it (e.g. no lease). */
    public static final int REJECTED = 0x202;
    /** The responder canceled the request; it may have started processing it. */
    public static final int CANCELED = 0x203;
    /** The request is invalid. */
    public static final int INVALID = 0x204;
    /** The smallest application-defined code. */
    public static final int MIN_USER_CODE = 0x301;
    /** The largest application-defined code, 0xFFFFFFFE, compared unsigned. */
    public static final int MAX_USER_CODE = 0xFFFFFFFE;

    private ErrorCodes() {
    }

    /**
     * The spec's name of a protocol code ("REJECTED"), {@code "USER(0x00000301)"} for an application code, and
     * {@code "RESERVED(0x...)"} for anything else.
     */
    public static String name(int code) {
        switch (code) {
            case INVALID_SETUP:
                return "INVALID_SETUP";
            case UNSUPPORTED_SETUP:
                return "UNSUPPORTED_SETUP";
            case REJECTED_SETUP:
                return "REJECTED_SETUP";
            case REJECTED_RESUME:
                return "REJECTED_RESUME";
            case CONNECTION_ERROR:
                return "CONNECTION_ERROR";
            case CONNECTION_CLOSE:
                return "CONNECTION_CLOSE";
            case APPLICATION_ERROR:
                return "APPLICATION_ERROR";
            case REJECTED:
                return "REJECTED";
            case CANCELED:
                return "CANCELED";
            case INVALID:
                return "INVALID";
            default:
                return (isUserCode(code) ? "USER(0x" : "RESERVED(0x") + String.format("%08x", code) + ")";
        }
    }

    /**
     * Whether {@code code} is a connection-level code, one that travels on stream 0: INVALID_SETUP,
     * UNSUPPORTED_SETUP, REJECTED_SETUP, REJECTED_RESUME, CONNECTION_ERROR, CONNECTION_CLOSE.
     */
    public static boolean isConnectionLevel(int code) {
        switch (code) {
            case INVALID_SETUP:
            case UNSUPPORTED_SETUP:
            case REJECTED_SETUP:
            case REJECTED_RESUME:
            case CONNECTION_ERROR:
            case CONNECTION_CLOSE:
                return true;
            default:
                return false;
        }
    }

    /** Whether {@code code} is one of the protocol's stream-level codes (APPLICATION_ERROR..INVALID). */
    public static boolean isStreamLevel(int code) {
        return code >= APPLICATION_ERROR && code <= INVALID;
    }

    /** Whether {@code code} lies in the application range {@link #MIN_USER_CODE}..{@link #MAX_USER_CODE}. */
    public static boolean isUserCode(int code) {
        return Integer.compareUnsigned(code, MIN_USER_CODE) >= 0 && Integer.compareUnsigned(code, MAX_USER_CODE) <= 0;
    }
}
