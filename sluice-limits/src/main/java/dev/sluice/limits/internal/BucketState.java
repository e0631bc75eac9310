package dev.sluice.limits.internal;

/**
 * One immutable snapshot of a token bucket: the fields of Go's {@code rate.Limiter} without its mutex.
 *
 * <p>A {@link TokenBucket} replaces its snapshot with a compare-and-set, so an operation computes on a consistent
 * state and takes effect at once or not at all, as under Go's lock. The snapshot is kept small (40 bytes) because
 * every granted token allocates one and racing threads pass it between their caches: the settings live in a
 * shared {@link BucketConfig}, and Go's {@code lastEvent} takes no room when it equals {@link #last}, which is what
 * {@code allow} leaves.
 *
 * <p>Not part of the API. Immutable; thread-safe.
 */
final class BucketState {

    /** Go's zero time as a latest event: before every instant, equal to none. */
    private static final Event NEVER = new Event(WideTime.NEVER_HI, WideTime.NEVER_LO);

    /** The rate and the burst. */
    final BucketConfig config;
    /** The tokens at {@link #last}; negative while reservations wait for tokens not yet accumulated. */
    final double tokens;
    /**
     * When {@link #tokens} was computed, in nanoseconds. {@code Long.MIN_VALUE} at first: Go's zero time, which
     * is at least 2^63 ns before any instant, and which Java reproduces because any elapsed time from it either
     * saturates as Go's does or refills the bucket that starts full anyway.
     */
    final long last;
    /** The latest instant at which a reservation acts (Go's {@code lastEvent}); {@code null} if it is {@link #last}. */
    private final Event event;

    private BucketState(BucketConfig config, double tokens, long last, Event event) {
        this.config = config;
        this.tokens = tokens;
        this.last = last;
        this.event = event;
    }

    /** A full bucket that has never been used, as Go's {@code NewLimiter}. */
    static BucketState initial(BucketConfig config) {
        return new BucketState(config, config.burst, Long.MIN_VALUE, NEVER);
    }

    /** The state after a call at {@code now} left {@code tokens} and a latest event at {@code (eventHi, eventLo)}. */
    static BucketState after(BucketConfig config, double tokens, long now, long eventHi, long eventLo) {
        Event event = eventLo == now && eventHi == WideTime.hi(now) ? null : new Event(eventHi, eventLo);
        return new BucketState(config, tokens, now, event);
    }

    /** The state after a call at {@code now} left {@code tokens}, with a latest event at {@code now}. */
    static BucketState after(BucketConfig config, double tokens, long now) {
        return new BucketState(config, tokens, now, null);
    }

    /** The {@code hi} half of the latest event, a {@link WideTime}. */
    long eventHi() {
        return event == null ? WideTime.hi(last) : event.hi;
    }

    /** The {@code lo} half of the latest event, a {@link WideTime}. */
    long eventLo() {
        return event == null ? last : event.lo;
    }

    /**
     * The tokens at {@code t}: those at {@link #last} plus what accumulated since, capped at the burst. Does not
     * change anything. Time going backwards accumulates nothing (the elapsed time is 0, not negative).
     */
    double advance(long t) {
        long elapsed = RateMath.saturatingSub(t, t < last ? t : last);
        BucketConfig c = config;
        // The steady state of a limiter that is not overloaded: one token short, refilled by now.
        if (tokens == c.burstLessOne && elapsed > c.fullAfterOneToken) {
            return c.burst;
        }
        double limit = c.limit;
        int burst = c.burst;
        if (limit > 0 && RateMath.reachesBurst(tokens, elapsed, limit, burst)) {
            return burst;
        }
        double advanced = tokens + RateMath.tokensFromDuration(limit, elapsed);
        return advanced > burst ? burst : advanced;
    }

    /** A latest event other than {@link #last}: a 128-bit instant. */
    private static final class Event {
        final long hi;
        final long lo;

        Event(long hi, long lo) {
            this.hi = hi;
            this.lo = lo;
        }
    }
}
