package dev.sluice.rpc;

/**
 * The status of a failed call: gRPC's code set, with gRPC's numbers, so that one code means the same in both
 * worlds. {@link #OK} is listed for completeness; a failure never carries it.
 *
 * <p>On the wire a status travels by its name in an APPLICATION_ERROR message ({@link RpcException}).
 */
public enum RpcStatus {
    OK(0),
    CANCELLED(1),
    UNKNOWN(2),
    INVALID_ARGUMENT(3),
    DEADLINE_EXCEEDED(4),
    NOT_FOUND(5),
    ALREADY_EXISTS(6),
    PERMISSION_DENIED(7),
    RESOURCE_EXHAUSTED(8),
    FAILED_PRECONDITION(9),
    ABORTED(10),
    OUT_OF_RANGE(11),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14),
    DATA_LOSS(15),
    UNAUTHENTICATED(16);

    private static final RpcStatus[] BY_VALUE = values();

    private final int value;

    RpcStatus(int value) {
        this.value = value;
    }

    /** gRPC's number for this code, 0..16. */
    public int value() {
        return value;
    }

    /** The status with gRPC's number {@code value}, or {@link #UNKNOWN} for a number outside 0..16. */
    public static RpcStatus fromValue(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : UNKNOWN;
    }

    /**
     * The status named {@code name} ({@code "NOT_FOUND"}), or null. Compares without allocating, so that a peer's
     * error message can be read cheaply.
     */
    public static RpcStatus fromName(CharSequence name) {
        for (RpcStatus s : BY_VALUE) {
            if (s.name().contentEquals(name)) {
                return s;
            }
        }
        return null;
    }
}
