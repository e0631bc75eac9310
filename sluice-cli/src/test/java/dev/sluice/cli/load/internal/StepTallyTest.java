package dev.sluice.cli.load.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.load.StepStats;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StepTallyTest {

    private final StepTally tally = new StepTally();

    @Test
    void eachOutcomeIsCountedWithItsLatencyAndTheStepAddsUp() {
        for (int i = 0; i < 7; i++) {
            tally.sent();
        }
        long[] settled = {
            // each call returns how many of the step's requests are settled, this one included
            tally.success(690_000),                              // 690 ms
            tally.success(1_300_000),                            // 1.3 s
            tally.rejection("rate_limited", 300),
            tally.rejection("lease_exhausted", 200),
            tally.timeout(500_000),                              // the timeout, 500 ms
            tally.failure("IOException: reset", 40_000),
            tally.failure("no answer within the drain timeout (10 s)", 10_000_000),
        };
        assertThat(settled).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(tally.settled()).isEqualTo(tally.sentCount()).isEqualTo(7);

        StepStats s = tally.stats(3, 450, Duration.ofSeconds(5));

        assertThat(s).extracting(StepStats::step, StepStats::offeredRate, StepStats::duration)
            .containsExactly(3, 450, Duration.ofSeconds(5));
        assertThat(s).extracting(StepStats::sent, StepStats::successes, StepStats::rejected, StepStats::timedOut,
            StepStats::failed).containsExactly(7L, 2L, 2L, 1L, 2L);
        assertThat(s.successLatency().count()).isEqualTo(2);
        assertThat(s.successLatency().maxMicros()).isBetween(1_299_000L, 1_301_000L);
        assertThat(s.rejectionLatency().count()).isEqualTo(2);
        assertThat(s.failureLatency().count()).as("rejected + timed out + failed").isEqualTo(5);
        assertThat(s.failureLatency().maxMicros()).as("the drain timeout").isBetween(9_990_000L, 10_010_000L);
        assertThat(s.rejectionsByMessage()).isEqualTo(Map.of("rate_limited", 1L, "lease_exhausted", 1L));
        assertThat(s.failuresByCause()).isEqualTo(Map.of("IOException: reset", 1L,
            "no answer within the drain timeout (10 s)", 1L));
    }

    @Test
    void addToSumsTheStepsLatenciesIntoTheRuns() {
        StepTally other = new StepTally();
        tally.sent();
        tally.success(690_000);
        other.sent();
        other.sent();
        other.success(1_300_000);
        other.rejection("rate_limited", 300);
        Histogram success = new Histogram(3);
        Histogram failure = new Histogram(3);
        Histogram rejection = new Histogram(3);

        tally.addTo(success, failure, rejection);
        other.addTo(success, failure, rejection);

        assertThat(success.getTotalCount()).isEqualTo(2);
        assertThat(success.getMaxValue()).isBetween(1_299_000L, 1_301_000L);
        assertThat(failure.getTotalCount()).isEqualTo(1);
        assertThat(rejection.getTotalCount()).isEqualTo(1);
    }

    @Test
    void causesBeyondTheBoundAreCountedTogether() {
        int n = StepTally.MAX_KEYS + 5;
        for (int i = 0; i < n; i++) {
            tally.sent();
            tally.failure("cause-" + i, 1);
        }
        StepStats s = tally.stats(0, 1, Duration.ofSeconds(1));
        assertThat(s.failuresByCause()).hasSize(StepTally.MAX_KEYS + 1).containsEntry(StepTally.OTHER, 5L);
        assertThat(s.failuresByCause().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(s.failed());
    }
}
