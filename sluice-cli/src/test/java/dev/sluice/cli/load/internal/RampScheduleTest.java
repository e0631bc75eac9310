package dev.sluice.cli.load.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.load.Ramp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RampScheduleTest {

    private static final long START = 7_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    /** 100, 200 and 300 requests/s for 1 s each: 600 requests, the steps back to back. */
    private static final RampSchedule STAIRS = RampSchedule.of(START, new Ramp(100, 300, 100, Duration.ofSeconds(1)));

    @Test
    void stepsFollowEachOtherAndNumberTheirRequestsAsOneSequence() {
        assertThat(STAIRS.steps()).isEqualTo(3);
        assertThat(STAIRS.total()).isEqualTo(600);
        long[][] rows = {
            // i, step, intended offset from START (ns)
            {0, 0, 0},
            {99, 0, 990_000_000},           // the last of step 0: 99 * 10 ms
            {100, 1, SECOND},               // step 1 starts exactly 1 s in
            {101, 1, SECOND + 5_000_000},   // 200/s: 5 ms apart
            {299, 1, SECOND + 995_000_000},
            {300, 2, 2 * SECOND},
            {599, 2, 2 * SECOND + 996_666_666}, // 299 * 1e9 / 300, floored
        };
        for (long[] row : rows) {
            assertThat(STAIRS.stepOf(row[0])).as("step of %d", row[0]).isEqualTo((int) row[1]);
            assertThat(STAIRS.intendedNanos(row[0])).as("time of %d", row[0]).isEqualTo(START + row[2]);
        }
        assertThat(STAIRS.firstIndex(0)).isZero();
        assertThat(STAIRS.firstIndex(1)).isEqualTo(100);
        assertThat(STAIRS.firstIndex(2)).isEqualTo(300);
        assertThat(STAIRS.firstIndex(3)).isEqualTo(600);
        assertThat(STAIRS.stepEndNanos(1)).isEqualTo(START + 2 * SECOND);
    }

    @Test
    void dueCountAgreesWithTheIntendedTimes() {
        assertThat(STAIRS.dueCount(START - 1)).isZero();
        assertThat(STAIRS.dueCount(START + 10 * SECOND)).as("after the end: everything").isEqualTo(600);
        // Every request is due at its time and not 1 ns before.
        for (long i = 0; i < STAIRS.total(); i++) {
            long t = STAIRS.intendedNanos(i);
            assertThat(STAIRS.dueCount(t)).as("due at the time of %d", i).isEqualTo(i + 1);
            assertThat(STAIRS.dueCount(t - 1)).as("due 1 ns before %d", i).isEqualTo(i);
        }
    }

    @Test
    void requestsOutsideTheScheduleHaveNoStep() {
        assertThatThrownBy(() -> STAIRS.stepOf(600)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("request 600 is not in [0, 600)");
        assertThatThrownBy(() -> STAIRS.stepOf(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
