package dev.sluice.cli.load;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What happened during one second of a load run: the requests sent during it, and the outcomes that arrived
 * during it (an outcome belongs to the second in which it arrived, so a slow answer shows up late, as it did).
 *
 * <p>Immutable. Over a whole run the seconds add up: the sum of {@code sent} equals the sum of
 * {@code responses + rejected + failed}, and {@code inFlight} carries the difference from second to second:
 * {@code inFlight = previous inFlight + sent - responses - rejected - failed}.
 *
 * @param second the second's index, 0 for the first second after the run started
 * @param sent requests sent during this second
 * @param responses answers received (the server accepted and answered the request)
 * @param rejected requests refused with ERROR[REJECTED] (over the lease, rate limit or stream limit)
 * @param failed requests that ended with any other error, timed out, or got no answer before the drain timeout
 * @param inFlight requests sent but not yet answered at the end of this second
 * @param responsesByServer responses per answering server, keyed by the response's data (the server's address),
 *     sorted by key; the values add up to {@code responses}
 * @param responseLatency latency of the responses received during this second
 * @param rejectionLatency latency of the rejections received during this second
 */
public record SecondStats(int second, long sent, long responses, long rejected, long failed, long inFlight,
                          Map<String, Long> responsesByServer, Latency responseLatency, Latency rejectionLatency) {

    public SecondStats {
        if (second < 0 || sent < 0 || responses < 0 || rejected < 0 || failed < 0 || inFlight < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got second=" + second + " sent=" + sent
                + " responses=" + responses + " rejected=" + rejected + " failed=" + failed + " inFlight="
                + inFlight);
        }
        responsesByServer = Collections.unmodifiableMap(new TreeMap<>(responsesByServer));
    }

    /** Every outcome that arrived during this second: {@code responses + rejected + failed}. */
    public long completed() {
        return responses + rejected + failed;
    }
}
