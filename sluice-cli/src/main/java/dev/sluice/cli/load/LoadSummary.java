package dev.sluice.cli.load;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of a whole load run: totals, rates, latency percentiles, per-server totals and every second's
 * {@link SecondStats}.
 *
 * <p>Immutable. Every request sent has exactly one outcome: {@code sent == responses + rejected + failed}; a request
 * still unanswered when the drain timeout ran out is counted in {@code failed} (see {@code failuresByCause}).
 *
 * @param rate the planned rate, requests per second
 * @param duration the sending time: as planned, or up to the stop if the run was stopped early (the run then
 *     waits up to its drain timeout for answers); the per-second rates are over this time
 * @param payloadSize bytes of data in each request
 * @param sent requests sent
 * @param responses answers received
 * @param rejected requests refused with ERROR[REJECTED]
 * @param failed requests that ended with any other error or got no answer before the drain timeout
 * @param responsesByServer responses per answering server (the response's data), sorted by key
 * @param failuresByCause failed requests per cause ({@code "ExceptionName: message"}), sorted by key
 * @param responseLatency latency of all responses, µs from the intended send time
 * @param rejectionLatency latency of all rejections, µs from the intended send time
 * @param achievedRate requests per second actually sent: {@code sent} over the longer of the sending time and
 *     the time from the start to the last send (so a sender that fell behind shows a lower rate)
 * @param maxSendLagMicros the largest delay between a request's intended and actual send time, µs
 * @param seconds the run second by second, in order, including the seconds spent draining
 */
public record LoadSummary(int rate, Duration duration, int payloadSize, long sent, long responses, long rejected,
                          long failed, Map<String, Long> responsesByServer, Map<String, Long> failuresByCause,
                          Latency responseLatency, Latency rejectionLatency, double achievedRate,
                          long maxSendLagMicros, List<SecondStats> seconds) {

    public LoadSummary {
        if (rate <= 0 || duration.isNegative() || duration.isZero() || payloadSize < 0) {
            throw new IllegalArgumentException("expected rate > 0, duration > 0 and payloadSize >= 0, got rate="
                + rate + " duration=" + duration + " payloadSize=" + payloadSize);
        }
        if (sent < 0 || responses < 0 || rejected < 0 || failed < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got sent=" + sent + " responses=" + responses
                + " rejected=" + rejected + " failed=" + failed);
        }
        responsesByServer = Collections.unmodifiableMap(new TreeMap<>(responsesByServer));
        failuresByCause = Collections.unmodifiableMap(new TreeMap<>(failuresByCause));
        seconds = List.copyOf(seconds);
    }

    /** Responses per second of the sending time: the "accepted" rate. */
    public double responsesPerSecond() {
        return perSecond(responses);
    }

    /** Rejections per second of the sending time. */
    public double rejectedPerSecond() {
        return perSecond(rejected);
    }

    /** Failures per second of the sending time. */
    public double failedPerSecond() {
        return perSecond(failed);
    }

    /** {@code count} per second of the sending time. */
    public double perSecond(long count) {
        return count * 1e9 / duration.toNanos();
    }
}
