package dev.sluice.limits.adaptive;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * One limit shared by several users of the same service — the connections a server leases to — each through a
 * {@link Share} of it. The shares' samples drive the one limit: each share reports what it takes (its samples'
 * {@code inFlight}), the limit hears their sum, at most once per {@code minSampleInterval} unless it is a drop, and
 * of drops seen by several shares at once only the first within {@code dropHoldoff}. Each share's limit is the
 * shared one split a quarter evenly and the rest by what each took lately, so that a busy user is not held to an
 * idle one's share and an idle one can still start.
 *
 * <p>Thread-safe: the shares are fed from different threads (each connection's event loop); every call takes this
 * object's lock, which a lease sender does once per lease period, not per request.
 */
public final class SharedLimit {

    private final Limit limit;
    private final long minSampleIntervalNanos;
    private final long dropHoldoffNanos;
    private final List<Share> shares = new ArrayList<>();
    private long lastSampleNanos;
    private long lastDropNanos;
    private boolean sampled;
    private boolean dropped;

    /**
     * @param limit             the limit to share; only this object feeds it from now on
     * @param minSampleInterval how often at most the limit hears a sample that is not a drop, in nanoseconds
     * @param dropHoldoff       drops within this time after one are the same overload, in nanoseconds
     */
    public SharedLimit(Limit limit, long minSampleInterval, long dropHoldoff) {
        if (limit == null || minSampleInterval < 0 || dropHoldoff < 0) {
            throw new IllegalArgumentException("limit must not be null and the intervals >= 0, got " + limit + ", "
                + minSampleInterval + ", " + dropHoldoff);
        }
        this.limit = limit;
        this.minSampleIntervalNanos = minSampleInterval;
        this.dropHoldoffNanos = dropHoldoff;
    }

    /** A new share, for one user (one connection); {@link Share#leave()} it when that user is gone. */
    public synchronized Share join() {
        Share s = new Share();
        shares.add(s);
        return s;
    }

    /** The shared limit, for all shares together. */
    public synchronized int limit() {
        return limit.limit();
    }

    /** How many shares there are. */
    public synchronized int shares() {
        return shares.size();
    }

    private synchronized void onSample(Share from, long nowNanos, long rttNanos, int inFlight, boolean drop) {
        from.taking = Math.max(0, inFlight);
        long taking = 0;
        for (Share s : shares) {
            taking += s.taking;
        }
        int total = (int) Math.max(1, Math.min(Integer.MAX_VALUE, taking));
        if (drop) {
            if (dropped && nowNanos - lastDropNanos < dropHoldoffNanos) {
                return;
            }
            dropped = true;
            lastDropNanos = nowNanos;
        } else if (sampled && nowNanos - lastSampleNanos < minSampleIntervalNanos) {
            return;
        }
        sampled = true;
        lastSampleNanos = nowNanos;
        limit.onSample(nowNanos, rttNanos, total, drop);
    }

    private synchronized int limitOf(Share share) {
        if (!shares.contains(share)) {
            return 1;
        }
        long taking = 0;
        for (Share s : shares) {
            taking += s.taking;
        }
        double even = 0.25 / shares.size();
        double byUse = taking == 0 ? 0.75 / shares.size() : 0.75 * share.taking / taking;
        return (int) Math.max(1, Math.floor(limit.limit() * (even + byUse)));
    }

    private synchronized void leave(Share share) {
        shares.remove(share);
    }

    /**
     * One user's part of a {@link SharedLimit}, a {@link Limit} in its own right: its samples feed the shared
     * limit, and its limit is its part of it. {@link #onChange} is not supported (a share's part moves with the
     * other shares' use; read {@link #limit()} when needed).
     */
    public final class Share implements Limit {

        private volatile long taking;

        private Share() {
        }

        @Override
        public void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped) {
            SharedLimit.this.onSample(this, nowNanos, rttNanos, inFlight, dropped);
        }

        @Override
        public int limit() {
            return limitOf(this);
        }

        @Override
        public void onChange(IntConsumer listener) {
            throw new UnsupportedOperationException("a share's part moves with the others' use: read limit()");
        }

        /** This user is gone: its part goes back to the others. */
        public void leave() {
            SharedLimit.this.leave(this);
        }

        @Override
        public String toString() {
            return "SharedLimit.Share(" + limit() + " of " + SharedLimit.this.limit() + ")";
        }
    }
}
