package dev.sluice.core.internal.connection;

import dev.sluice.core.Limits;
import dev.sluice.core.ResponderMetrics;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The settings one connection runs with, validated by the public builders. Immutable.
 *
 * @param mtu                    fragment outbound frames larger than this (bytes, incl. the 3-byte length); 0 = off
 * @param maxInboundPayloadSize  bound of a reassembled payload, bytes
 * @param maxActiveStreams       inbound requests over this many active streams are REJECTED
 * @param keepAliveInterval      how often KEEPALIVE(R) frames are sent
 * @param keepAliveMaxLifetime   close the connection when no KEEPALIVE arrived for this long
 * @param nanoClock              the time source of leases and statistics (tests pass a virtual one)
 * @param peerCloseDrain         after the peer's CONNECTION_CLOSE, how long in-flight streams may take to finish
 *                               before the connection is closed anyway
 * @param metrics                makes each connection's {@link ResponderMetrics} when it opens; null for none
 */
public record ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams,
                               Duration keepAliveInterval, Duration keepAliveMaxLifetime, LongSupplier nanoClock,
                               Duration peerCloseDrain, Supplier<? extends ResponderMetrics> metrics) {

    /** Without metrics. */
    public ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams, Duration keepAliveInterval,
                            Duration keepAliveMaxLifetime, LongSupplier nanoClock, Duration peerCloseDrain) {
        this(mtu, maxInboundPayloadSize, maxActiveStreams, keepAliveInterval, keepAliveMaxLifetime, nanoClock,
            peerCloseDrain, null);
    }

    /** With the system's monotonic clock and a drain of {@code Limits.DEFAULT_PEER_CLOSE_DRAIN}. */
    public ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams, Duration keepAliveInterval,
                            Duration keepAliveMaxLifetime) {
        this(mtu, maxInboundPayloadSize, maxActiveStreams, keepAliveInterval, keepAliveMaxLifetime,
            System::nanoTime);
    }

    /** With a drain of {@code Limits.DEFAULT_PEER_CLOSE_DRAIN}. */
    public ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams, Duration keepAliveInterval,
                            Duration keepAliveMaxLifetime, LongSupplier nanoClock) {
        this(mtu, maxInboundPayloadSize, maxActiveStreams, keepAliveInterval, keepAliveMaxLifetime, nanoClock,
            Limits.DEFAULT_PEER_CLOSE_DRAIN);
    }
}
