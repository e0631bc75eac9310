package dev.sluice.limits;

import java.time.Duration;

/**
 * Tokens promised by a {@link RateLimiter} to a caller who will act once they have accumulated: the answer of
 * {@link RateLimiter#reserveN}. Use it to slow down without dropping work: wait {@link #delay()}, then act; or, if
 * the wait turns out too long, {@link #cancel()} it so that later callers get the tokens sooner.
 *
 * <p>A reservation that is not {@link #ok() OK} promised nothing: its delay is {@link RateLimiter#INF_DURATION} and
 * cancelling it does nothing. A reservation of a limiter whose limit was {@link RateLimiter#INF infinite} acts at
 * once and touched nothing.
 *
 * <p>Thread-safe. Instants and durations are nanoseconds on the limiter's clock.
 */
public interface Reservation {

    /**
     * Whether the limiter could promise the tokens within the maximum wait asked for: false if more tokens than
     * the burst were asked for, or the wait would have been longer than allowed.
     */
    boolean ok();

    /**
     * How long from {@code nowNanos} the holder must wait before acting: 0 to act at once, never negative, and
     * {@link RateLimiter#INF_DURATION} if the reservation is not OK (or its tokens never come, as with a zero rate).
     */
    long delayFrom(long nowNanos);

    /** {@link #delayFrom} the limiter's clock's current time, in nanoseconds. */
    long delayNanos();

    /**
     * {@link #delayNanos()} as a {@link Duration}: {@link Duration#ZERO} to act at once, and
     * {@code Duration.ofNanos(Long.MAX_VALUE)} (about 292 years) for {@link RateLimiter#INF_DURATION}.
     */
    default Duration delay() {
        return Duration.ofNanos(delayNanos());
    }

    /**
     * Declares at {@code nowNanos} that the holder will not act, and gives back as many of the reserved tokens as
     * it can: those that reservations made since did not come to depend on. Does nothing if the reservation is not
     * OK or its time to act is already before {@code nowNanos} (the tokens were used). Cancelling twice gives back
     * tokens twice: cancel once.
     */
    void cancelAt(long nowNanos);

    /** {@link #cancelAt} the limiter's clock's current time. */
    void cancel();
}
