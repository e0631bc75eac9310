package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import java.time.Duration;

/**
 * One LEASE: the responder lets the requester send up to {@code allowedRequests} requests during {@code ttl},
 * counted from when the requester receives it. A later lease replaces the earlier one. A lease of 0 requests or
 * 0 ttl stops all requests.
 *
 * @param ttl             how long the lease holds (millisecond precision on the wire, at most 2^31-1 ms)
 * @param allowedRequests how many requests it allows (0 to 2^31-1)
 * @param metadata        optional metadata carried with it (null = none); an unpooled buffer, not reference
 *                        counted by Sluice
 */
public record Lease(Duration ttl, int allowedRequests, ByteBuf metadata) {

    public Lease {
        if (ttl == null || ttl.isNegative() || ttl.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("lease ttl must be between 0 and 2^31-1 ms, got " + ttl);
        }
        if (allowedRequests < 0) {
            throw new IllegalArgumentException("lease allowedRequests must be >= 0, got " + allowedRequests);
        }
    }

    /** A lease without metadata. */
    public static Lease of(Duration ttl, int allowedRequests) {
        return new Lease(ttl, allowedRequests, null);
    }

    /** The ttl in whole milliseconds, as it travels. */
    public int ttlMillis() {
        return (int) ttl.toMillis();
    }

    @Override
    public String toString() {
        return "Lease(" + allowedRequests + " requests / " + ttl.toMillis() + " ms"
            + (metadata == null ? "" : ", metadata " + metadata.readableBytes() + " B") + ")";
    }
}
