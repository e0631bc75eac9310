package dev.sluice.core.internal.lease;

import java.util.ArrayDeque;

/**
 * Requests counted per slot of time, for a sender that keeps a latency target: how many started in each slot,
 * how many are still unanswered, and how many ran late. A request is late when it is answered later than
 * {@code lateAfter}, or still unanswered once its slot is older than that plus one slot (then all of the slot's
 * unanswered requests are). One small object per slot in which requests start, none per request; the caller holds
 * each request's slot as its context. Event-loop confined.
 */
public final class RequestSlots {

    private static final long SECOND = 1_000_000_000L;

    private long slotNanos;
    private long lateAfterNanos;
    /** Slots of the last second and a bit, oldest first. */
    private final ArrayDeque<Slot> recent = new ArrayDeque<>();
    /** Slots that may still hold unanswered requests not yet counted late, oldest first. */
    private final ArrayDeque<Slot> watched = new ArrayDeque<>();
    private Slot current;

    /**
     * @param slotNanos      the width of a slot
     * @param lateAfterNanos an answer later than this is late
     */
    public RequestSlots(long slotNanos, long lateAfterNanos) {
        this.slotNanos = slotNanos;
        this.lateAfterNanos = lateAfterNanos;
    }

    /**
     * A new target: slots from now on are {@code slotNanos} wide, and answers later than {@code lateAfterNanos}
     * late, those of earlier slots included.
     */
    public void resize(long slotNanos, long lateAfterNanos) {
        this.slotNanos = slotNanos;
        this.lateAfterNanos = lateAfterNanos;
    }

    /** A request started at {@code nowNanos}; returns its slot, to hand back when it is answered. */
    public Object started(long nowNanos) {
        if (current == null || nowNanos - current.startNanos >= slotNanos) {
            current = new Slot(nowNanos);
            recent.addLast(current);
            watched.addLast(current);
            // The rate in time is looked at a second back from when lateness began (a target not yet known is an
            // unbounded one: nothing is late, and ten seconds suffice).
            long kept = SECOND + Math.min(lateAfterNanos, 10 * SECOND) + 2 * slotNanos;
            while (nowNanos - recent.peekFirst().startNanos > kept) {
                recent.pollFirst();
            }
        }
        current.started++;
        current.unanswered++;
        return current;
    }

    /** The request of {@code slot} was refused: it neither started nor waits for an answer. */
    public void refused(Object slot) {
        if (slot instanceof Slot s) {
            s.started--;
            s.unanswered--;
        }
    }

    /**
     * The request of {@code slot} was answered after {@code latencyNanos} (or cancelled before any answer:
     * {@code cancelled}). Returns whether that newly counts as late: not if its slot was counted already.
     */
    public boolean answered(Object slot, long latencyNanos, boolean cancelled) {
        if (!(slot instanceof Slot s)) {
            return false;
        }
        s.unanswered--;
        if (!cancelled && latencyNanos <= lateAfterNanos) {
            s.inTime++;
            return false;
        }
        // A slot found overdue counted all its unanswered requests already, this one among them.
        if (!s.overdue) {
            s.late++;
            return true;
        }
        return false;
    }

    /** The request of {@code slot} needs no answer (fire-and-forget): it is no longer awaited. */
    public void done(Object slot) {
        if (slot instanceof Slot s) {
            s.unanswered--;
        }
    }

    /** Counts as late the requests still unanswered in slots past the limit; returns whether it counted any. */
    public boolean countOverdue(long nowNanos) {
        Slot oldest;
        boolean counted = false;
        while ((oldest = watched.peekFirst()) != null) {
            if (oldest.unanswered > 0 && !oldest.overdue) {
                if (nowNanos - oldest.startNanos <= lateAfterNanos + slotNanos) {
                    break;
                }
                oldest.overdue = true;
                oldest.late += oldest.unanswered;
                counted = true;
            } else if (oldest == current) {
                break;
            }
            watched.pollFirst();
        }
        return counted;
    }

    /** Whether more than {@code share} of the requests started during the last second ran late (and any did). */
    public boolean lateOver(long nowNanos, double share) {
        long late = 0;
        long started = 0;
        for (Slot s : recent) {
            if (nowNanos - s.startNanos <= SECOND) {
                late += s.late;
                started += s.started;
            }
        }
        return late > 0 && late > started * share;
    }

    /**
     * Requests per second started during the second before {@code untilNanos} ({@code inTimeOnly}: of those, the
     * ones answered in time), counting only those started at or after {@code sinceNanos} and dividing by that
     * shorter span if it is one (at least {@code minSpanNanos}).
     */
    public long ratePerSecond(long untilNanos, long sinceNanos, long minSpanNanos, boolean inTimeOnly) {
        long taken = 0;
        for (Slot s : recent) {
            if (s.startNanos < untilNanos && untilNanos - s.startNanos <= SECOND && s.startNanos >= sinceNanos) {
                taken += inTimeOnly ? s.inTime : s.started;
            }
        }
        long span = Math.min(SECOND, Math.max(minSpanNanos, untilNanos - sinceNanos));
        return taken * SECOND / span;
    }

    /**
     * The late requests have been acted on: they, and every request unanswered now, count for nothing more, and
     * the next request starts a new slot.
     */
    public void settle() {
        for (Slot s : watched) {
            s.overdue = true;
        }
        watched.clear();
        current = null;
        for (Slot s : recent) {
            s.late = 0;
        }
    }

    private static final class Slot {
        final long startNanos;
        int started;
        int unanswered;
        /** Requests of this slot answered in time. */
        int inTime;
        /** Requests of this slot known to be late and not yet settled. */
        int late;
        /** Its requests unanswered when it was found past the limit are counted; later answers count no more. */
        boolean overdue;

        Slot(long startNanos) {
            this.startNanos = startNanos;
        }
    }
}
