package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** HyStart++'s delay-increase test on scripted samples: rounds of 100 ms, a sample each 25 ms. */
class LatencyRiseTest {

    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private final LatencyRise rise = new LatencyRise(100 * MS);
    private long now;

    /** A round of four samples; returns what the last one answered. */
    private boolean round(long... latencyMicros) {
        boolean risen = false;
        for (long l : latencyMicros) {
            risen = rise.sample(now, l * US);
            now += 25 * MS;
        }
        return risen;
    }

    /** Whether the first sample of the next round, which closes this one, finds a rise. */
    private boolean closed() {
        return rise.sample(now, 0);
    }

    @Test
    void steadyLatencyIsNoRise() {
        for (int i = 0; i < 20; i++) {
            assertThat(round(2_000, 3_000, 2_500, 9_000)).isFalse();
        }
        assertThat(rise.risen()).isFalse();
    }

    @Test
    void aRoundWhoseLeastLatencyIsFourMillisecondsOverTheLowestSoFarIsARise() {
        round(2_000, 3_000, 2_000, 2_500);
        round(3_000, 4_000, 3_500, 9_000);              // least 3 ms: 1 ms over the lowest round, no rise
        assertThat(round(5_900, 7_000, 20_000, 6_000)).isFalse();   // least 5.9 ms: under 2 + 4
        assertThat(closed()).isFalse();
        round(6_000, 8_000, 19_000, 12_000);           // least 6 ms, 4 ms over the lowest round
        assertThat(closed()).isTrue();
        assertThat(round(1_000, 1_000, 1_000, 1_000)).isTrue();    // once seen, it stays seen
    }

    @Test
    void theRiseIsAnEighthOfTheBaselineBetweenFourAndSixteenMilliseconds() {
        LatencyRise slow = new LatencyRise(100 * MS);
        slow.sample(0, 80 * MS);
        slow.sample(100 * MS, 89 * MS);                 // an eighth of 80 ms is 10 ms: 89 is no rise
        assertThat(slow.sample(200 * MS, 90 * MS)).isFalse();
        assertThat(slow.sample(300 * MS, 0)).isTrue();  // 90 is
        LatencyRise verySlow = new LatencyRise(100 * MS);
        verySlow.sample(0, 400 * MS);
        verySlow.sample(100 * MS, 416 * MS);            // an eighth would be 50 ms; at most 16
        assertThat(verySlow.sample(200 * MS, 0)).isTrue();
    }

    @Test
    void roundsWithoutAnswersAreNotLatencies() {
        round(2_000, 2_000, 2_000, 2_000);
        round(0, 0, 0, 0);
        round(0, 7_000, 0, 0);
        assertThat(closed()).isTrue();
    }
}
