package dev.sluice.rpc;

/**
 * A call failed with a status: what a handler throws (or signals) to fail with a chosen status, and what a client
 * receives for any failure of a call.
 *
 * <p>On the wire it is an ERROR frame with code APPLICATION_ERROR whose message is the status name, and when there
 * is a description, a colon, a space and the description: {@code NOT_FOUND: no such user}. A message that does not
 * start with a status name (any other RSocket peer's failure) reads as {@link RpcStatus#UNKNOWN} with the whole
 * message as the description. The exception's own {@link #getMessage()} is that same text.
 */
public class RpcException extends RuntimeException {

    private static final String SEPARATOR = ": ";

    private final RpcStatus status;
    private final String description;

    /** A failure with {@code status} and a description (null reads as empty). */
    public RpcException(RpcStatus status, String description) {
        this(status, description, null);
    }

    /** A failure with {@code status}, a description (null reads as empty) and a local cause. */
    public RpcException(RpcStatus status, String description, Throwable cause) {
        super(wireMessage(status, description), cause);
        if (status == null || status == RpcStatus.OK) {
            throw new IllegalArgumentException("a failure needs a status other than OK: " + status);
        }
        this.status = status;
        this.description = description == null ? "" : description;
    }

    /** The status the call failed with. */
    public RpcStatus status() {
        return status;
    }

    /** What went wrong, as the side that failed described it; empty when it said nothing. */
    public String description() {
        return description;
    }

    /** The APPLICATION_ERROR message that carries this failure: {@code STATUS} or {@code STATUS: description}. */
    public String wireMessage() {
        return getMessage();
    }

    /** Reads an APPLICATION_ERROR message written by {@link #wireMessage()}, or any other peer's message. */
    public static RpcException fromWireMessage(String message) {
        if (message == null || message.isEmpty()) {
            return new RpcException(RpcStatus.UNKNOWN, "");
        }
        int colon = message.indexOf(SEPARATOR);
        CharSequence name = colon < 0 ? message : message.subSequence(0, colon);
        RpcStatus status = RpcStatus.fromName(name);
        if (status == null || status == RpcStatus.OK) {
            return new RpcException(RpcStatus.UNKNOWN, message);
        }
        return new RpcException(status, colon < 0 ? "" : message.substring(colon + SEPARATOR.length()));
    }

    private static String wireMessage(RpcStatus status, String description) {
        String name = status == null ? "null" : status.name();
        return description == null || description.isEmpty() ? name : name + SEPARATOR + description;
    }
}
