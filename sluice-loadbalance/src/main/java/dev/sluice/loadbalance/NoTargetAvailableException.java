package dev.sluice.loadbalance;

/** A balancer had no connected target for a request: all are down, reconnecting, or draining. */
public final class NoTargetAvailableException extends RuntimeException {

    public NoTargetAvailableException(String message) {
        super(message, null, false, false);
    }
}
