package dev.sluice.limits.redis.internal;

import java.util.concurrent.TimeoutException;

/**
 * Redis did not answer a decision within the limiter's timeout. Thrown, or rather handed to the failure policy,
 * once per timed-out decision, which during an outage is every decision: it carries no stack trace, which would
 * cost more than the decision and only show the timer's thread.
 *
 * <p>Not part of the API: callers see a {@link TimeoutException}.
 */
public final class DecisionTimeoutException extends TimeoutException {

    private static final long serialVersionUID = 1L;

    public DecisionTimeoutException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
