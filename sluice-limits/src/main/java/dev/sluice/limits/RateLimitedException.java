package dev.sluice.limits;

/**
 * A rate limiter refused to let a caller wait for tokens: more tokens were asked for than the burst, the wait would
 * end after the caller's deadline, the deadline had already passed, or a keyed limiter has no room for a new key.
 * The limiter is left as it was.
 *
 * <p>Rejection is the limiter's normal answer under overload, meant to be cheap: the exception carries no stack
 * trace (it would cost more than the decision and say nothing the message does not).
 */
public final class RateLimitedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RateLimitedException(String message) {
        super(message, null, false, false);
    }
}
