package dev.sluice.core.internal.lease;

/**
 * The responder's enforcement of the leases it sent: one permit per request, counted when the request frame
 * arrives; nothing is accepted before the first lease or after its ttl. Event-loop confined; time is a parameter.
 */
public final class ResponderLeaseTracker {

    /** The ERROR[REJECTED] message for a request after the lease's ttl, or before any lease. */
    public static final String EXPIRED = "lease_expired";
    /** The ERROR[REJECTED] message for a request beyond the lease's allowance. */
    public static final String EXHAUSTED = "lease_exhausted";

    private boolean sent;
    private long expiresAtNanos;
    private int allowed;
    private int remaining;
    private long accepted;
    private long rejected;

    /** A LEASE went out at {@code nowNanos}; it replaces the previous one. */
    public void onLeaseSent(long nowNanos, int ttlMillis, int allowedRequests) {
        sent = true;
        expiresAtNanos = nowNanos + ttlMillis * 1_000_000L;
        allowed = allowedRequests;
        remaining = allowedRequests;
    }

    /** Whether a lease went out (and so {@link #usedPermits} and {@link #unusedPermits} describe it). */
    public boolean leased() {
        return sent;
    }

    /** Permits of the current (or last) lease that admitted a request. */
    public int usedPermits() {
        return allowed - remaining;
    }

    /** Permits of the current (or last) lease not used (yet, or ever once it expired). */
    public int unusedPermits() {
        return remaining;
    }

    /**
     * Takes a permit for a request arriving at {@code nowNanos}.
     *
     * @return null when accepted, else the rejection message ({@link #EXPIRED} or {@link #EXHAUSTED})
     */
    public String tryAcquire(long nowNanos) {
        if (!sent || nowNanos - expiresAtNanos >= 0) {
            rejected++;
            return EXPIRED;
        }
        if (remaining <= 0) {
            rejected++;
            return EXHAUSTED;
        }
        remaining--;
        accepted++;
        return null;
    }

    public long accepted() {
        return accepted;
    }

    public long rejected() {
        return rejected;
    }
}
