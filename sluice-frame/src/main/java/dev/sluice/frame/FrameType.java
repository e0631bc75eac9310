package dev.sluice.frame;

/**
 * The 6-bit frame type codes of the RSocket wire format, and a few questions about them.
 *
 * <p>The type sits in the top 6 bits of the 16-bit field after the stream id (see {@link FrameHeader}). Codes
 * 0x0F to 0x3E are unassigned; 0x3F is the extension frame. rsocket-java also has pseudo types for PAYLOAD with
 * N/C flags; those never appear on the wire and have no constant here.
 *
 * <p>Constants and pure functions only; thread-safe. {@link #name(int)} allocates nothing for assigned codes.
 */
public final class FrameType {

    /** Reserved; never valid on the wire. */
    public static final int RESERVED = 0x00;
    /** Connection setup, client to server, first frame on stream 0. */
    public static final int SETUP = 0x01;
    /** Grant of requests for a period (stream 0). */
    public static final int LEASE = 0x02;
    /** Connection liveness probe and answer (stream 0). */
    public static final int KEEPALIVE = 0x03;
    /** Request of one response. */
    public static final int REQUEST_RESPONSE = 0x04;
    /** Fire-and-forget request: no response. */
    public static final int REQUEST_FNF = 0x05;
    /** Request of a finite or infinite stream of responses. */
    public static final int REQUEST_STREAM = 0x06;
    /** Bi-directional stream request. */
    public static final int REQUEST_CHANNEL = 0x07;
    /** Additional demand for a stream or channel. */
    public static final int REQUEST_N = 0x08;
    /** Cancellation of an outstanding request. */
    public static final int CANCEL = 0x09;
    /** A payload on a stream: next element, completion, or both. */
    public static final int PAYLOAD = 0x0A;
    /** Error on a stream or on the connection (stream 0). */
    public static final int ERROR = 0x0B;
    /** Connection-level metadata (stream 0). */
    public static final int METADATA_PUSH = 0x0C;
    /** Resumption of a previous connection (stream 0). */
    public static final int RESUME = 0x0D;
    /** Acceptance of a RESUME (stream 0). */
    public static final int RESUME_OK = 0x0E;
    /** Extension frame: an extended type in the body. */
    public static final int EXT = 0x3F;

    /** The largest value a 6-bit type field can hold. */
    public static final int MAX_CODE = 0x3F;

    private static final String[] NAMES = new String[MAX_CODE + 1];

    static {
        NAMES[RESERVED] = "RESERVED";
        NAMES[SETUP] = "SETUP";
        NAMES[LEASE] = "LEASE";
        NAMES[KEEPALIVE] = "KEEPALIVE";
        NAMES[REQUEST_RESPONSE] = "REQUEST_RESPONSE";
        NAMES[REQUEST_FNF] = "REQUEST_FNF";
        NAMES[REQUEST_STREAM] = "REQUEST_STREAM";
        NAMES[REQUEST_CHANNEL] = "REQUEST_CHANNEL";
        NAMES[REQUEST_N] = "REQUEST_N";
        NAMES[CANCEL] = "CANCEL";
        NAMES[PAYLOAD] = "PAYLOAD";
        NAMES[ERROR] = "ERROR";
        NAMES[METADATA_PUSH] = "METADATA_PUSH";
        NAMES[RESUME] = "RESUME";
        NAMES[RESUME_OK] = "RESUME_OK";
        NAMES[EXT] = "EXT";
    }

    private FrameType() {
    }

    /**
     * The spec's name of a type code ("REQUEST_STREAM"), or {@code "UNKNOWN(0x2a)"} for a code without one
     * (including values outside 0..63, which a 6-bit field cannot hold).
     */
    public static String name(int type) {
        if (type >= 0 && type <= MAX_CODE && NAMES[type] != null) {
            return NAMES[type];
        }
        return "UNKNOWN(0x" + String.format("%02x", type) + ")";
    }

    /** Whether {@code type} starts a stream: REQUEST_RESPONSE, REQUEST_FNF, REQUEST_STREAM or REQUEST_CHANNEL. */
    public static boolean isRequest(int type) {
        return type >= REQUEST_RESPONSE && type <= REQUEST_CHANNEL;
    }

    /** Whether {@code type} is a frame type the protocol defines for the wire (RESERVED is not). */
    public static boolean isKnown(int type) {
        return (type >= SETUP && type <= RESUME_OK) || type == EXT;
    }

    /**
     * Whether frames of {@code type} must always travel on stream 0: SETUP, LEASE, KEEPALIVE, METADATA_PUSH,
     * RESUME and RESUME_OK. (ERROR may use stream 0 or a stream; EXT is not restricted.)
     */
    public static boolean mustUseStreamZero(int type) {
        switch (type) {
            case SETUP:
            case LEASE:
            case KEEPALIVE:
            case METADATA_PUSH:
            case RESUME:
            case RESUME_OK:
                return true;
            default:
                return false;
        }
    }

    /**
     * Whether frames of {@code type} belong to one stream and so must use a stream id &gt; 0: the four REQUEST_*
     * types, REQUEST_N, CANCEL and PAYLOAD.
     */
    public static boolean mustUseNonZeroStream(int type) {
        return type >= REQUEST_RESPONSE && type <= PAYLOAD;
    }

    /**
     * Whether frames of {@code type} carry both metadata and data, so that a set M flag is followed by a 24-bit
     * metadata length: SETUP, the four REQUEST_* types, PAYLOAD and EXT.
     */
    public static boolean hasPayloadSection(int type) {
        return type == SETUP || isRequest(type) || type == PAYLOAD || type == EXT;
    }
}
