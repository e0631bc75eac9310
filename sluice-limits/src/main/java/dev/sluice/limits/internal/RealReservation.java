package dev.sluice.limits.internal;

import dev.sluice.limits.NanoClock;
import dev.sluice.limits.Reservation;

/**
 * A {@link Reservation} of a {@link TokenBucket}: how many tokens it took, when its holder may act, and the rate at
 * the time it was made (a cancel restores tokens at that rate, as Go does, whatever the rate is now).
 *
 * <p>Not part of the API. Immutable; thread-safe. Instants are 128-bit {@link WideTime}s in nanoseconds.
 */
public final class RealReservation implements Reservation {

    /** The reservation that is not OK: it never acts and cancelling it does nothing. Shared, since all are alike. */
    public static final RealReservation NOT_OK = new RealReservation();

    private final TokenBucket bucket;
    private final NanoClock clock;
    private final boolean ok;
    final int tokens;
    final double limit;
    final long actHi;
    final long actLo;

    RealReservation(TokenBucket bucket, NanoClock clock, int tokens, double limit, long actHi, long actLo) {
        this.bucket = bucket;
        this.clock = clock;
        this.ok = true;
        this.tokens = tokens;
        this.limit = limit;
        this.actHi = actHi;
        this.actLo = actLo;
    }

    private RealReservation() {
        this.bucket = null;
        this.clock = null;
        this.ok = false;
        this.tokens = 0;
        this.limit = 0;
        this.actHi = WideTime.NEVER_HI;
        this.actLo = WideTime.NEVER_LO;
    }

    @Override
    public boolean ok() {
        return ok;
    }

    @Override
    public long delayFrom(long nowNanos) {
        if (!ok) {
            return RateMath.INF_DURATION;
        }
        long delay = WideTime.sub(actHi, actLo, WideTime.hi(nowNanos), nowNanos);
        return delay < 0 ? 0 : delay;
    }

    @Override
    public long delayNanos() {
        return ok ? delayFrom(clock.nanoTime()) : RateMath.INF_DURATION;
    }

    @Override
    public void cancelAt(long nowNanos) {
        if (ok) {
            bucket.cancelAt(this, nowNanos);
        }
    }

    @Override
    public void cancel() {
        if (ok) {
            bucket.cancelAt(this, clock.nanoTime());
        }
    }

    @Override
    public String toString() {
        return ok ? "Reservation[ok, tokens=" + tokens + ", limit=" + limit + "]" : "Reservation[not ok]";
    }
}
