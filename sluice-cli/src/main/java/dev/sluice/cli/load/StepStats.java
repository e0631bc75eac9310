package dev.sluice.cli.load;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What became of the requests sent during one step of a {@link Ramp}: each request counts in the step in which it
 * was <em>due</em> (its intended send time), whenever its outcome came, so that a step's figures describe the load
 * it offered.
 *
 * <p>Every request sent has exactly one outcome: {@code sent == successes + rejected + timedOut + failed}. Latencies
 * are in microseconds from the intended send time; a failure's latency is how long the requester waited to learn
 * that it failed (for a timeout, the timeout).
 *
 * <p>Immutable.
 *
 * @param step the step's index, from 0
 * @param offeredRate the rate the step offered, requests per second
 * @param duration how long the step sent (shorter than planned if the run was stopped during it)
 * @param sent requests sent
 * @param successes answered (a payload, or an empty completion)
 * @param rejected refused with ERROR[REJECTED]
 * @param timedOut not answered within the timeout: cancelled, and counted here even if an answer came later
 * @param failed ended with any other error, or still had no answer when the run's drain timeout ran out
 * @param successLatency latency of the successes
 * @param failureLatency latency of every failure: rejected, timed out or failed
 * @param rejectionLatency latency of the rejections alone
 * @param rejectionsByMessage rejections per ERROR[REJECTED] message (e.g. {@code rate_limited}), sorted
 * @param failuresByCause the {@code failed} requests per cause ({@code "ExceptionName: message"}), sorted
 */
public record StepStats(int step, int offeredRate, Duration duration, long sent, long successes, long rejected,
                        long timedOut, long failed, Latency successLatency, Latency failureLatency,
                        Latency rejectionLatency, Map<String, Long> rejectionsByMessage,
                        Map<String, Long> failuresByCause) {

    public StepStats {
        if (step < 0 || offeredRate < 1 || duration.isNegative()) {
            throw new IllegalArgumentException("expected step >= 0, offeredRate >= 1 and duration >= 0, got step="
                + step + " offeredRate=" + offeredRate + " duration=" + duration);
        }
        if (sent < 0 || successes < 0 || rejected < 0 || timedOut < 0 || failed < 0
            || successes + rejected + timedOut + failed != sent) {
            throw new IllegalArgumentException("expected counts >= 0 and sent == successes + rejected + timedOut +"
                + " failed, got sent=" + sent + " successes=" + successes + " rejected=" + rejected + " timedOut="
                + timedOut + " failed=" + failed);
        }
        rejectionsByMessage = Collections.unmodifiableMap(new TreeMap<>(rejectionsByMessage));
        failuresByCause = Collections.unmodifiableMap(new TreeMap<>(failuresByCause));
    }

    /** Rejected, timed out or failed: every request that did not succeed. */
    public long failures() {
        return rejected + timedOut + failed;
    }

    /** The share of the requests sent that succeeded, 0 to 1; 0 when none was sent. */
    public double successRatio() {
        return sent == 0 ? 0 : (double) successes / sent;
    }

    /** Successes per second of the step: the goodput. */
    public double successesPerSecond() {
        return duration.isZero() ? 0 : successes * 1e9 / duration.toNanos();
    }
}
