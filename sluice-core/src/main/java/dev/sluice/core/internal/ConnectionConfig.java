package dev.sluice.core.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The settings one connection runs with, validated by the public builders. Immutable.
 *
 * @param mtu                    fragment outbound frames larger than this (bytes, incl. the 3-byte length); 0 = off
 * @param maxInboundPayloadSize  bound of a reassembled payload, bytes
 * @param maxActiveStreams       inbound requests over this many active streams are REJECTED
 * @param keepAliveInterval      how often KEEPALIVE(R) frames are sent
 * @param keepAliveMaxLifetime   close the connection when no KEEPALIVE arrived for this long
 * @param nanoClock              the time source of leases and statistics (tests pass a virtual one)
 */
public record ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams,
                               Duration keepAliveInterval, Duration keepAliveMaxLifetime, LongSupplier nanoClock) {

    /** With the system's monotonic clock. */
    public ConnectionConfig(int mtu, int maxInboundPayloadSize, int maxActiveStreams, Duration keepAliveInterval,
                            Duration keepAliveMaxLifetime) {
        this(mtu, maxInboundPayloadSize, maxActiveStreams, keepAliveInterval, keepAliveMaxLifetime,
            System::nanoTime);
    }
}
