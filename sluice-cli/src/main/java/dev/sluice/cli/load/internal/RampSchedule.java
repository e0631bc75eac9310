package dev.sluice.cli.load.internal;

import dev.sluice.cli.load.Ramp;
import java.time.Duration;

/**
 * The intended send times of a {@link Ramp}: one {@link SendSchedule} per step, each starting where the previous one
 * ends, numbered as one sequence. Request {@code i} belongs to the step whose range
 * {@code [firstIndex(s), firstIndex(s + 1))} holds it.
 *
 * <p>Immutable and thread-safe. Times are in nanoseconds on the caller's clock.
 */
public final class RampSchedule {

    private final long startNanos;
    private final long stepNanos;
    private final SendSchedule[] steps;
    /** firstIndex[s]: the number of requests before step s; firstIndex[steps.length]: the total. */
    private final long[] firstIndex;

    private RampSchedule(long startNanos, long stepNanos, SendSchedule[] steps, long[] firstIndex) {
        this.startNanos = startNanos;
        this.stepNanos = stepNanos;
        this.steps = steps;
        this.firstIndex = firstIndex;
    }

    /** The schedule of {@code ramp} starting at {@code startNanos}. */
    public static RampSchedule of(long startNanos, Ramp ramp) {
        long stepNanos = ramp.stepDuration().toNanos();
        SendSchedule[] steps = new SendSchedule[ramp.steps()];
        long[] first = new long[steps.length + 1];
        for (int s = 0; s < steps.length; s++) {
            steps[s] = SendSchedule.of(startNanos + s * stepNanos, ramp.rate(s), Duration.ofNanos(stepNanos));
            first[s + 1] = first[s] + steps[s].total();
        }
        return new RampSchedule(startNanos, stepNanos, steps, first);
    }

    /** How many requests the whole ramp sends. */
    public long total() {
        return firstIndex[steps.length];
    }

    /** How many steps. */
    public int steps() {
        return steps.length;
    }

    /** The index of step {@code step}'s first request; {@code firstIndex(steps())} is {@link #total()}. */
    public long firstIndex(int step) {
        return firstIndex[step];
    }

    /** The step that request {@code i} belongs to. */
    public int stepOf(long i) {
        if (i < 0 || i >= total()) {
            throw new IllegalArgumentException("request " + i + " is not in [0, " + total() + ")");
        }
        int low = 0;
        int high = steps.length - 1;
        // Binary search for the last step whose first index is <= i; ends in log2(steps) rounds.
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (firstIndex[mid] <= i) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** When request {@code i} is due, ns. */
    public long intendedNanos(long i) {
        int s = stepOf(i);
        return steps[s].intendedNanos(i - firstIndex[s]);
    }

    /** How many requests are due at {@code nowNanos}: the number of {@code i} with {@code intendedNanos(i) <= now}. */
    public long dueCount(long nowNanos) {
        long elapsed = nowNanos - startNanos;
        if (elapsed < 0) {
            return 0;
        }
        int s = (int) Math.min(steps.length - 1, elapsed / stepNanos);
        return firstIndex[s] + steps[s].dueCount(nowNanos);
    }

    /** When step {@code step} ends (and the next one starts), ns. */
    public long stepEndNanos(int step) {
        return startNanos + (step + 1L) * stepNanos;
    }
}
