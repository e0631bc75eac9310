package dev.sluice.core;

import java.time.Duration;

/**
 * Defaults and bounds of the safety limits every connection enforces. Each has a setting on
 * {@link RSocketConnector} and {@link RSocketServer}.
 */
public final class Limits {

    /** The protocol's own maximum frame length (24-bit length field). */
    public static final int MAX_FRAME_LENGTH = 0xFF_FFFF;
    /** Default bound of a reassembled payload: 16 MiB. */
    public static final int DEFAULT_MAX_INBOUND_PAYLOAD_SIZE = 16 * 1024 * 1024;
    /** Default bound of concurrently active inbound streams per connection. */
    public static final int DEFAULT_MAX_ACTIVE_STREAMS = 100_000;
    /** Default time a server waits for SETUP. */
    public static final Duration DEFAULT_MAX_TIME_TO_FIRST_FRAME = Duration.ofSeconds(10);
    /** Default bound of connections one server holds. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /** Default of {@code peerCloseDrain}: how long streams may finish after the peer's CONNECTION_CLOSE. */
    public static final Duration DEFAULT_PEER_CLOSE_DRAIN = Duration.ofSeconds(30);
    /** The smallest MTU: rsocket-java's minimum, so that fragments always carry some payload. */
    public static final int MIN_MTU = 64;

    private Limits() {
    }

    static int checkMtu(int mtu) {
        if (mtu != 0 && (mtu < MIN_MTU || mtu > MAX_FRAME_LENGTH + 3)) {
            throw new IllegalArgumentException("mtu must be 0 (no fragmentation) or between " + MIN_MTU + " and "
                + (MAX_FRAME_LENGTH + 3) + ", got " + mtu);
        }
        return mtu;
    }

    static int checkPositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }

    static Duration checkPositive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }
}
