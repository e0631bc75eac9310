package dev.sluice.cli.load;

import java.time.Duration;
import java.util.List;

/**
 * The result of a {@link RampGenerator} run: each step's {@link StepStats}, in order, and the latencies over the
 * whole run.
 *
 * <p>Immutable. The totals add up as each step's do: {@code sent == successes + rejected + timedOut + failed}.
 *
 * @param ramp the planned ramp
 * @param timeout how long a request could take, from its intended send time, before it counted as timed out
 * @param steps the steps that sent, in order (all of them, unless the run was stopped)
 * @param successLatency latency of every success of the run, µs
 * @param failureLatency latency of every failure of the run (rejected, timed out, failed), µs
 * @param rejectionLatency latency of every rejection of the run, µs
 * @param maxSendLagMicros the largest delay between a request's intended and actual send time, µs
 * @param stoppedEarly whether {@link RampGenerator#stop()} (or an interrupt) ended the sending before the ramp's end
 */
public record RampSummary(Ramp ramp, Duration timeout, List<StepStats> steps, Latency successLatency,
                          Latency failureLatency, Latency rejectionLatency, long maxSendLagMicros,
                          boolean stoppedEarly) {

    public RampSummary {
        steps = List.copyOf(steps);
    }

    /** Requests sent over the run. */
    public long sent() {
        return steps.stream().mapToLong(StepStats::sent).sum();
    }

    /** Successes over the run. */
    public long successes() {
        return steps.stream().mapToLong(StepStats::successes).sum();
    }

    /** Rejections over the run. */
    public long rejected() {
        return steps.stream().mapToLong(StepStats::rejected).sum();
    }

    /** Timeouts over the run. */
    public long timedOut() {
        return steps.stream().mapToLong(StepStats::timedOut).sum();
    }

    /** Other failures over the run. */
    public long failed() {
        return steps.stream().mapToLong(StepStats::failed).sum();
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
