package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleReportTest {

    private static final Duration TWO_SECONDS = Duration.ofSeconds(2);

    /** A constant load has no request timeout: three outcomes, as the table always showed them. */
    @Test
    void aRunWithoutATimeoutAccountsForThreeOutcomes() {
        String text = ConsoleReport.summary(summary(null, 0, 3));

        assertThat(text).startsWith("sent 400 requests in 2 s: 200.0/s achieved of 200/s planned")
            .contains("accounting: sent 400 = responses 390 + rejected 7 + failed 3\n")
            .contains("failed 3: IOException: reset")
            .doesNotContain("timed out");
    }

    /** With a request timeout the timeouts get a row and a term of their own, and the accounting still adds up. */
    @Test
    void aRunWithATimeoutAccountsForItsTimeoutsToo() {
        String text = ConsoleReport.summary(summary(Duration.ofMillis(500), 2, 1));

        assertThat(text).containsPattern("(?m)^timed out +2 +1\\.0 ")
            .contains("accounting: sent 400 = responses 390 + rejected 7 + timed out 2 + failed 1\n")
            .doesNotContain("MISMATCH");
    }

    /** 400 requests in one 2 s step: 390 answered by one server, 7 rejected, the rest timed out or failed. */
    private static LoadSummary summary(Duration timeout, long timedOut, long failed) {
        Ramp ramp = Ramp.constant(200, TWO_SECONDS);
        Latency some = new Latency(390, 1_000, 2_000, 3_000, 4_000, 5_000);
        StepStats step = new StepStats(0, 200, TWO_SECONDS, 400, 390, 7, timedOut, failed, some, Latency.NONE,
            Latency.NONE, Map.of("rate_limited", 7L), Map.of("IOException: reset", failed));
        return new LoadSummary(ramp, timeout, 16, TWO_SECONDS, List.of(step), List.of(), Map.of("s1", 390L), some,
            Latency.NONE, Latency.NONE, 200.0, 50, false);
    }
}
