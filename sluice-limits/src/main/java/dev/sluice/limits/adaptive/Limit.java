package dev.sluice.limits.adaptive;

import java.util.function.IntConsumer;

/**
 * An estimate of how many requests a service can have in flight at once while its latency holds, updated from
 * samples of completed (or dropped) requests.
 *
 * <p>Not thread-safe: one thread feeds samples and reads the limit (for a lease sender, its connection's event
 * loop). The estimate is always within the algorithm's {@code [min, max]} bounds and at least 1.
 */
public interface Limit {

    /**
     * Records one request's outcome.
     *
     * @param nowNanos  when the sample is taken, on the caller's clock (only differences matter)
     * @param rttNanos  the request's latency in nanoseconds ({@code >= 0})
     * @param inFlight  how many requests were in flight when it was measured, itself included
     * @param dropped   the request was dropped, timed out or missed its latency target: a sign of overload
     */
    void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped);

    /** The current limit: requests in flight at once. */
    int limit();

    /**
     * Calls {@code listener} with the new limit each time it changes, on the thread that fed the sample. Optional
     * for users; listeners cannot be removed and should be cheap.
     */
    void onChange(IntConsumer listener);
}
