package dev.sluice.limits.adaptive;

/**
 * HyStart++'s delay-increase test (RFC 9406) on a limit's samples: the least latency of each round of samples
 * against the least of any round before (RFC 9406 compares with the round before only, and so misses a rise spread
 * over rounds), a rise of an eighth of it (at least 4 ms, at most 16 ms) read as the service starting to queue.
 * Once seen it stays seen: a service that counts per window of time is fast again at each window's start,
 * which says nothing of how close its capacity is. Samples of 0 (nothing answered) are not latencies.
 *
 * <p>Not thread-safe; one per limit.
 */
final class LatencyRise {

    private static final long NONE = Long.MAX_VALUE;
    private static final long MIN_RISE = 4_000_000L;
    private static final long MAX_RISE = 16_000_000L;

    private final long roundNanos;
    private long roundStartNanos = Long.MIN_VALUE;
    private long roundMin = NONE;
    private long baseline = NONE;
    private boolean risen;

    /** @param roundNanos how long a round of samples lasts, {@code > 0} */
    LatencyRise(long roundNanos) {
        this.roundNanos = roundNanos;
    }

    /** Hears one sample; returns whether latency has risen, now or before. */
    boolean sample(long nowNanos, long latencyNanos) {
        if (risen) {
            return true;
        }
        if (roundStartNanos == Long.MIN_VALUE) {
            roundStartNanos = nowNanos;
        } else if (nowNanos - roundStartNanos >= roundNanos) {
            if (roundMin != NONE && baseline != NONE
                && roundMin >= baseline + Math.max(MIN_RISE, Math.min(MAX_RISE, baseline / 8))) {
                risen = true;
                return true;
            }
            baseline = Math.min(baseline, roundMin);
            roundMin = NONE;
            roundStartNanos = nowNanos;
        }
        if (latencyNanos > 0) {
            roundMin = Math.min(roundMin, latencyNanos);
        }
        return false;
    }

    /** Whether a rise has been seen. */
    boolean risen() {
        return risen;
    }
}
