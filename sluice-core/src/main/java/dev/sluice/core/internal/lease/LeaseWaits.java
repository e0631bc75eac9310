package dev.sluice.core.internal.lease;

import java.util.ArrayDeque;

/**
 * Requests of this side that wait for a lease permit: first in, first out, at most {@code maxPending} at once, each
 * for at most {@code maxWaitNanos}. A waiting request is its start task, which the connection runs again when a
 * permit is there for it (a LEASE arrived) or its wait is over (it is then refused). Event-loop confined; time is
 * a parameter.
 */
final class LeaseWaits {

    private final int maxPending;
    private final long maxWaitNanos;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final ArrayDeque<Long> deadlines = new ArrayDeque<>();

    /** {@code maxPending} 0: nothing ever waits. */
    LeaseWaits(int maxPending, long maxWaitNanos) {
        this.maxPending = maxPending;
        this.maxWaitNanos = maxWaitNanos;
    }

    boolean enabled() {
        return maxPending > 0;
    }

    int maxPending() {
        return maxPending;
    }

    long maxWaitNanos() {
        return maxWaitNanos;
    }

    boolean isEmpty() {
        return tasks.isEmpty();
    }

    boolean isFull() {
        return tasks.size() >= maxPending;
    }

    /** {@code start} waits from {@code nowNanos}; the caller checked {@link #isFull}. */
    void add(Runnable start, long nowNanos) {
        tasks.add(start);
        deadlines.add(nowNanos + maxWaitNanos);
    }

    /** When the longest-waiting request's wait ends; only when not empty. */
    long firstDeadline() {
        return deadlines.peekFirst();
    }

    /** The longest-waiting request, removed; only when not empty. */
    Runnable poll() {
        deadlines.pollFirst();
        return tasks.pollFirst();
    }
}
