package dev.sluice.cli.load.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SendScheduleTest {

    private static final long START = 5_000_000_000L;

    @Test
    void intendedTimesAreExactOffsetsFromTheStart() {
        SendSchedule s = SendSchedule.of(START, 3, Duration.ofSeconds(2));
        long[][] rows = {
            // i, intended offset from START (ns): floor(i * 1e9 / 3)
            {0, 0},
            {1, 333_333_333},
            {2, 666_666_666},
            {3, 1_000_000_000},
            {4, 1_333_333_333},
            {5, 1_666_666_666},
            {3_000_000_000L, 1_000_000_000_000_000_000L}, // a billion seconds in: no drift, no overflow
        };
        for (long[] row : rows) {
            assertThat(s.intendedNanos(row[0])).as("i=%d", row[0]).isEqualTo(START + row[1]);
        }
    }

    @Test
    void dueCountCountsTheRequestsWhoseTimeHasCome() {
        SendSchedule s = SendSchedule.of(START, 1000, Duration.ofSeconds(3));
        long[][] rows = {
            // now - START (ns), requests due
            {-1, 0},              // before the start: nothing
            {0, 1},               // request 0 is due at the start itself
            {999_999, 1},         // 1 ns before request 1
            {1_000_000, 2},       // request 1 exactly on time
            {1_500_000, 2},
            {999_999_999, 1000},  // end of second 0: requests 0..999
            {2_999_000_000L, 3000}, // the last request
            {60_000_000_000L, 3000}, // long after: capped at the total
        };
        for (long[] row : rows) {
            assertThat(s.dueCount(START + row[0])).as("elapsed=%d", row[0]).isEqualTo(row[1]);
        }
        assertThat(s.total()).isEqualTo(3000);
    }

    @Test
    void totalHoldsTheRequestsStrictlyBeforeTheEnd() {
        Object[][] rows = {
            // rate, duration, total
            {1000, Duration.ofSeconds(3), 3000L},
            {3, Duration.ofMillis(1500), 5L},       // offsets 0, .333, .667, 1.0, 1.333 s
            {3, Duration.ofMillis(1333), 4L},       // 1.333333333 s is not before 1.333 s
            {1, Duration.ofNanos(1), 1L},           // request 0 at offset 0 is before the end
            {7, Duration.ofSeconds(1), 7L},
        };
        for (Object[] row : rows) {
            SendSchedule s = SendSchedule.of(0, (int) row[0], (Duration) row[1]);
            assertThat(s.total()).as("rate=%s duration=%s", row[0], row[1]).isEqualTo(row[2]);
        }
    }

    @Test
    void dueCountAndIntendedTimeAgreeAtEveryRate() {
        SplittableRandom random = new SplittableRandom(42);
        for (int n = 0; n < 2_000; n++) {
            int rate = 1 + random.nextInt(SendSchedule.MAX_RATE);
            SendSchedule s = SendSchedule.of(-7, rate, Duration.ofDays(365 * 100));
            long i = random.nextLong(s.total() - 1);
            long t = s.intendedNanos(i);
            assertThat(s.dueCount(t)).as("rate=%d i=%d", rate, i).isEqualTo(i + 1);
            assertThat(s.dueCount(t - 1)).as("rate=%d i=%d", rate, i).isEqualTo(i);
            assertThat(s.intendedNanos(i + 1)).isGreaterThan(t);
        }
    }

    @Test
    void rejectsValuesOutsideItsRange() {
        assertThatThrownBy(() -> SendSchedule.of(0, 0, Duration.ofSeconds(1)))
            .hasMessage("rate must be between 1 and 10000000, got 0");
        assertThatThrownBy(() -> SendSchedule.of(0, 1, Duration.ZERO)).hasMessage("duration must be > 0, got PT0S");
        assertThatThrownBy(() -> SendSchedule.of(0, 1, Duration.ofSeconds(1)).intendedNanos(-1))
            .hasMessage("i < 0: -1");
    }
}
