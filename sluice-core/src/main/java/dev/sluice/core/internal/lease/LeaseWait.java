package dev.sluice.core.internal.lease;

import java.time.Duration;

/**
 * How a requester's request waits for a lease permit: at most {@code maxPendingRequests} wait at once, each for at
 * most {@code maxWait}; {@code maxPendingRequests} 0: none waits. Validated by the public builders.
 */
public record LeaseWait(int maxPendingRequests, Duration maxWait) {

    /** 256 requests, as rsocket-java, for up to a second: a lease's ttl is often a second. */
    public static final LeaseWait DEFAULT = new LeaseWait(256, Duration.ofSeconds(1));

    /** No request waits. */
    public static final LeaseWait NONE = new LeaseWait(0, Duration.ZERO);
}
