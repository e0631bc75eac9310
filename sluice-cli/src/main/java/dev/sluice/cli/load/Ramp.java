package dev.sluice.cli.load;

import dev.sluice.cli.load.internal.SendSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A staircase of offered load: {@code from}, {@code from + step}, ... up to {@code to} requests per second, each
 * held for {@code stepDuration}, one right after the other. {@code from == to} is a single step: a constant load
 * ({@link #constant}).
 *
 * <p>Immutable.
 *
 * @param from the first step's rate, requests per second, 1 to {@link SendSchedule#MAX_RATE}
 * @param to the last step's rate, at least {@code from}; {@code to - from} is a multiple of {@code step}
 * @param step how much each step adds, requests per second, > 0
 * @param stepDuration how long each step sends, > 0
 */
public record Ramp(int from, int to, int step, Duration stepDuration) {

    /** The most steps a ramp may have. */
    public static final int MAX_STEPS = 10_000;

    public Ramp {
        if (from < 1 || to > SendSchedule.MAX_RATE || to < from) {
            throw new IllegalArgumentException("expected 1 <= from <= to <= " + SendSchedule.MAX_RATE + ", got from="
                + from + " to=" + to);
        }
        if (step < 1) {
            throw new IllegalArgumentException("step < 1: " + step);
        }
        if ((to - from) % step != 0) {
            throw new IllegalArgumentException("to - from is not a multiple of step: from=" + from + " to=" + to
                + " step=" + step);
        }
        if ((to - from) / step + 1 > MAX_STEPS) {
            throw new IllegalArgumentException("more than " + MAX_STEPS + " steps: from=" + from + " to=" + to
                + " step=" + step);
        }
        if (stepDuration == null || stepDuration.isNegative() || stepDuration.isZero()
            || stepDuration.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("step duration must be > 0 and < 2^31 s, got " + stepDuration);
        }
    }

    /** One step at {@code rate} requests per second for {@code duration}. */
    public static Ramp constant(int rate, Duration duration) {
        return new Ramp(rate, rate, 1, duration);
    }

    /** How many steps. */
    public int steps() {
        return (to - from) / step + 1;
    }

    /** The rate of step {@code index} (from 0), requests per second. */
    public int rate(int index) {
        if (index < 0 || index >= steps()) {
            throw new IndexOutOfBoundsException("step " + index + " of " + steps());
        }
        return from + index * step;
    }

    /** Every step's rate, in order. */
    public List<Integer> rates() {
        List<Integer> rates = new ArrayList<>(steps());
        for (int i = 0; i < steps(); i++) {
            rates.add(rate(i));
        }
        return Collections.unmodifiableList(rates);
    }

    /** How long the whole ramp sends. */
    public Duration duration() {
        return stepDuration.multipliedBy(steps());
    }

    /** The offered rates for people: {@code 1000/s} for a constant load, {@code 100..600/s by 50} for a ramp. */
    public String describe() {
        return steps() == 1 ? from + "/s" : from + ".." + to + "/s by " + step;
    }
}
