package dev.sluice.core.internal.lease;

/**
 * The requester's view of the last LEASE it received: how much of it is left, for {@code availability()}.
 *
 * <p>Written on the event loop only (one writer); read from any thread. {@code remaining} and {@code allowed} are
 * packed in one volatile long so that a reader never pairs one lease's count with another's allowance.
 * Time is a parameter ({@code nowNanos}).
 */
public final class RequesterLeaseTracker {

    private volatile long counts; // allowed << 32 | remaining
    private volatile long expiresAtNanos;
    private volatile boolean received;

    /** A LEASE arrived at {@code nowNanos}: it replaces the previous one; ttl counts from now. */
    public void onLease(long nowNanos, int ttlMillis, int allowedRequests) {
        counts = (long) allowedRequests << 32 | allowedRequests;
        expiresAtNanos = nowNanos + ttlMillis * 1_000_000L;
        received = true;
    }

    /**
     * A request is being sent at {@code nowNanos}: takes one permit if there is one.
     *
     * @return null when a permit was taken, else why not: {@code lease_expired} (none received yet, or its ttl
     *         passed) or {@code lease_exhausted}
     */
    public String use(long nowNanos) {
        if (!received || nowNanos - expiresAtNanos >= 0) {
            return ResponderLeaseTracker.EXPIRED;
        }
        long c = counts;
        int remaining = (int) c;
        if (remaining <= 0) {
            return ResponderLeaseTracker.EXHAUSTED;
        }
        counts = (c & 0xFFFF_FFFF_0000_0000L) | (remaining - 1);
        return null;
    }

    /** Whether {@link #use} would take a permit at {@code nowNanos}. */
    public boolean hasPermit(long nowNanos) {
        return received && nowNanos - expiresAtNanos < 0 && (int) counts > 0;
    }

    /** remaining / allowed of the last lease; 0.0 before the first, once expired, or for a lease of 0. */
    public double availability(long nowNanos) {
        if (!received || nowNanos - expiresAtNanos >= 0) {
            return 0.0;
        }
        long c = counts;
        int allowed = (int) (c >>> 32);
        int remaining = (int) c;
        return allowed <= 0 ? 0.0 : (double) remaining / allowed;
    }

    /** Whether a lease was ever received. */
    public boolean received() {
        return received;
    }
}
