package dev.sluice.cli.load;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of a {@link LoadGenerator} run, in two views of the same requests: step by step ({@link StepStats},
 * each request in the step in which it was due, whenever its outcome came) and second by second
 * ({@link SecondStats}, each send and outcome in the second in which it happened); with the run's latencies.
 *
 * <p>Immutable. The totals are the steps' sums, and every request sent has exactly one outcome:
 * {@code sent == successes + rejected + timedOut + failed}. Over the seconds, {@code responses} add up to
 * {@code successes}, {@code rejected} to {@code rejected}, and {@code failed} to {@code timedOut + failed} (a second
 * does not tell a timeout from another failure). A constant load is a one-step run.
 *
 * @param ramp the planned load
 * @param timeout how long a request could take, from its intended send time, before it counted as timed out;
 *     {@code null} if requests had no timeout of their own (they were waited for up to the drain timeout)
 * @param payloadSize bytes of data in each request
 * @param duration the sending time: the ramp's, or up to the stop if the run was stopped early; the per-second rates
 *     are over this time
 * @param steps the steps that sent, in order (all of them, unless the run was stopped)
 * @param seconds the run second by second, in order, including the seconds spent waiting for the last answers
 * @param responsesByServer successes per answering server (the response's data), sorted by key
 * @param successLatency latency of every success, µs from the intended send time
 * @param failureLatency latency of every failure (rejected, timed out or failed), µs
 * @param rejectionLatency latency of every rejection, µs
 * @param achievedRate requests per second actually sent: {@code sent} over the longer of the sending time and the
 *     time from the start to the last send (so a sender that fell behind shows a lower rate)
 * @param maxSendLagMicros the largest delay between a request's intended and actual send time, µs
 * @param stoppedEarly whether {@link LoadGenerator#stop()} (or an interrupt) ended the sending before the ramp's end
 */
public record LoadSummary(Ramp ramp, Duration timeout, int payloadSize, Duration duration, List<StepStats> steps,
                          List<SecondStats> seconds, Map<String, Long> responsesByServer, Latency successLatency,
                          Latency failureLatency, Latency rejectionLatency, double achievedRate,
                          long maxSendLagMicros, boolean stoppedEarly) {

    public LoadSummary {
        if (ramp == null || timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("expected a ramp and a timeout > 0 or none, got ramp=" + ramp
                + " timeout=" + timeout);
        }
        if (payloadSize < 0 || duration.isNegative() || duration.isZero() || maxSendLagMicros < 0) {
            throw new IllegalArgumentException("expected payloadSize >= 0, duration > 0 and maxSendLagMicros >= 0,"
                + " got payloadSize=" + payloadSize + " duration=" + duration + " maxSendLagMicros="
                + maxSendLagMicros);
        }
        steps = List.copyOf(steps);
        seconds = List.copyOf(seconds);
        responsesByServer = Collections.unmodifiableMap(new TreeMap<>(responsesByServer));
    }

    /** Requests sent over the run. */
    public long sent() {
        return steps.stream().mapToLong(StepStats::sent).sum();
    }

    /** Successes (answers) over the run. */
    public long successes() {
        return steps.stream().mapToLong(StepStats::successes).sum();
    }

    /** Rejections over the run. */
    public long rejected() {
        return steps.stream().mapToLong(StepStats::rejected).sum();
    }

    /** Timeouts over the run; 0 without a {@link #timeout}. */
    public long timedOut() {
        return steps.stream().mapToLong(StepStats::timedOut).sum();
    }

    /** Other failures over the run, including requests still unanswered when the drain timeout ran out. */
    public long failed() {
        return steps.stream().mapToLong(StepStats::failed).sum();
    }

    /** The {@link #failed} requests per cause ({@code "ExceptionName: message"}), sorted by cause. */
    public Map<String, Long> failuresByCause() {
        Map<String, Long> out = new TreeMap<>();
        steps.forEach(s -> s.failuresByCause().forEach((k, v) -> out.merge(k, v, Long::sum)));
        return Collections.unmodifiableMap(out);
    }

    /** Rejections per ERROR[REJECTED] message, sorted by message. */
    public Map<String, Long> rejectionsByMessage() {
        Map<String, Long> out = new TreeMap<>();
        steps.forEach(s -> s.rejectionsByMessage().forEach((k, v) -> out.merge(k, v, Long::sum)));
        return Collections.unmodifiableMap(out);
    }

    /** Successes per second of the sending time: the goodput. */
    public double successesPerSecond() {
        return perSecond(successes());
    }

    /** Rejections per second of the sending time. */
    public double rejectedPerSecond() {
        return perSecond(rejected());
    }

    /** Failures per second of the sending time. */
    public double failedPerSecond() {
        return perSecond(failed());
    }

    /** {@code count} per second of the sending time. */
    public double perSecond(long count) {
        return count * 1e9 / duration.toNanos();
    }

    /** The step that offered {@code rate} requests per second, or null if none did (or it did not send). */
    public StepStats atRate(int rate) {
        for (StepStats s : steps) {
            if (s.offeredRate() == rate) {
                return s;
            }
        }
        return null;
    }
}
