package dev.sluice.limits.adaptive;

/**
 * Feeds a {@link Limit} a scripted latency sequence on a virtual clock: each sample advances the clock by 1 ms,
 * and the service is kept busy (in flight = the current limit) unless a step says otherwise.
 */
final class LatencyScript {

    static final long MS = 1_000_000L;

    private final Limit limit;
    private long now = 1_000 * MS;

    LatencyScript(Limit limit) {
        this.limit = limit;
    }

    /** {@code n} samples of {@code rttMillis}, the service busy; returns the limit after them. */
    int busy(int n, double rttMillis) {
        for (int i = 0; i < n; i++) {
            sample((long) (rttMillis * MS), limit.limit(), false);
        }
        return limit.limit();
    }

    /** {@code n} samples of {@code rttMillis} with only one request in flight (the service is idle). */
    int idle(int n, double rttMillis) {
        for (int i = 0; i < n; i++) {
            sample((long) (rttMillis * MS), 1, false);
        }
        return limit.limit();
    }

    /** {@code n} dropped samples of {@code rttMillis}. */
    int dropped(int n, double rttMillis) {
        for (int i = 0; i < n; i++) {
            sample((long) (rttMillis * MS), limit.limit(), true);
        }
        return limit.limit();
    }

    void sample(long rttNanos, int inFlight, boolean dropped) {
        now += MS;
        limit.onSample(now, rttNanos, inFlight, dropped);
    }
}
