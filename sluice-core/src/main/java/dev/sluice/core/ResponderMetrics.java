package dev.sluice.core;

/**
 * Hears what one connection's responder does, for metrics: how each request ended, why a refused one was refused,
 * the leases it granted. One instance per connection, made by the factory given to {@link RSocketServer#metrics}
 * or {@link RSocketConnector#metrics} when the connection opens; {@code sluice-micrometer} implements it.
 *
 * <p>Every callback runs on the connection's event loop, one at a time, so an implementation may count in plain
 * fields. They are on the request path: keep them to a few nanoseconds. That is why latency is sampled: reading
 * the clock twice per request costs more than everything else here, so the responder times only the requests
 * {@link #timeNext} picks.
 */
public interface ResponderMetrics {

    /** How a request ended. */
    enum Outcome {
        /** The response completed (request-response: its payload or an empty answer went out). */
        SUCCESS,
        /** The handler failed, or the requester's stream sent an ERROR. */
        ERROR,
        /**
         * Refused with ERROR[REJECTED], before the handler (a lease, the stream bound, a closing connection) or by
         * it (a {@link RequestGate} such as the rate limit); {@link #onResponse}'s {@code reason} says why.
         */
        REJECTED,
        /** The requester cancelled, or the connection closed first. */
        CANCELED
    }

    /** The reason of a request refused while the connection closes. */
    String CONNECTION_CLOSING = "connection_closing";
    /** The reason of a request refused beyond {@code maxActiveStreams}. */
    String TOO_MANY_STREAMS = "too_many_streams";

    /**
     * Whether to time the request arriving now. Called once per admitted request, before its handler runs; a
     * timed request's {@link #onResponse} carries its latency.
     */
    boolean timeNext();

    /**
     * One request ended: exactly one call per request, fire-and-forget included (it succeeds when its handler is
     * called).
     *
     * @param reason        for {@link Outcome#REJECTED}, the ERROR[REJECTED] message ({@code lease_exhausted},
     *                      {@code lease_expired}, {@code rate_limited}, {@link #TOO_MANY_STREAMS}, … or a
     *                      handler's own message); null otherwise
     * @param latencyNanos  from the request's arrival to the first signal of its response (request-response: the
     *                      answer), or -1 when {@link #timeNext} did not pick it
     */
    void onResponse(RequestType type, Outcome outcome, String reason, long latencyNanos);

    /** This side sent a LEASE of {@code permits} requests. */
    default void onLeaseSent(int permits) {
    }

    /**
     * A lease of this side ended (replaced by the next, or the connection closed): {@code usedPermits} of its
     * permits admitted a request, {@code unusedPermits} expired unused. Their sum is what {@link #onLeaseSent}
     * granted.
     */
    default void onLeaseEnded(int usedPermits, int unusedPermits) {
    }

    /** The connection closed; no callback follows. */
    default void onClose() {
    }
}
