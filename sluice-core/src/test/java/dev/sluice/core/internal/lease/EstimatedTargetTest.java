package dev.sluice.core.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The target estimated from a service's own answers, on a scripted clock. */
class EstimatedTargetTest {

    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private final EstimatedTarget target = new EstimatedTarget(5 * MS);
    private long now;

    /** A second of {@code n} answers, all but the last {@code slow} after {@code micros}, those after 100 ms. */
    private boolean second(int n, int slow, long micros) {
        for (int i = 0; i < n; i++) {
            target.answered(now, i < n - slow ? micros * US : 100 * MS);
            now += 1_000 * MS / n;
        }
        return target.roll(now);
    }

    @Test
    void nothingIsEstimatedBeforeASecondOfAnswers() {
        assertThat(target.targetNanos()).isZero();
        assertThat(target.roll(now)).isFalse();
        target.answered(now, 10 * MS);
        now += 999 * MS;
        assertThat(target.roll(now)).isFalse();
        assertThat(target.targetNanos()).isZero();
    }

    /** The first second: 100 answers in 8.191 ms, the top of its bucket, so that the histogram reads it exactly. */
    private void firstSecond() {
        assertThat(second(100, 0, 8_191)).isTrue();
        assertThat(target.targetNanos()).isEqualTo(4 * 8_191 * US);
    }

    @Test
    void theFirstSecondSetsAProvisionalTargetOfFourTimesItsP99TheNextTwiceTheUsualP99() {
        assertThat(second(100, 1, 8_191)).isTrue();      // one answer in a hundred is beyond the p99
        assertThat(target.targetNanos()).isEqualTo(4 * 8_191 * US);
        assertThat(second(100, 1, 8_191)).isTrue();
        assertThat(target.targetNanos()).isEqualTo(2 * 8_191 * US);
    }

    @Test
    void aHigherSecondsP99ReplacesHalfOfTheUsualOneALowerOneATenth() {
        firstSecond();
        second(100, 0, 8_191);                            // usual 8.191 ms, a target of 16.382
        assertThat(second(100, 0, 12_287)).isTrue();
        // 8.191 + (12.287 - 8.191) / 2 = 10.239 ms
        assertThat(target.targetNanos()).isEqualTo(2 * 10_239 * US);
        assertThat(second(100, 0, 10_239)).isFalse();     // the same p99 again: no change
        assertThat(second(100, 0, 8_191)).isTrue();
        // 10.239 - (10.239 - 8.191) / 10 = 10.0342 ms
        assertThat(target.targetNanos()).isEqualTo(2 * 10_034_200);
    }

    @Test
    void answersLaterThanTheTargetAreTheBreakdownItCatchesNotTheUsual() {
        firstSecond();
        second(100, 0, 8_191);                            // a target of 16.382 ms
        assertThat(second(100, 50, 8_191)).isFalse();     // half the answers at 100 ms: left out
        assertThat(target.targetNanos()).isEqualTo(2 * 8_191 * US);
    }

    @Test
    void aQuietSecondIsPooledWithTheNextSoThatTheP99IsNotTheSlowestAnswer() {
        assertThat(second(19, 1, 8_191)).isFalse();      // too few answers to tell a p99 from the slowest one
        assertThat(target.targetNanos()).isZero();
        assertThat(second(81, 0, 8_191)).isTrue();       // a hundred over two seconds, one of them slow
        assertThat(target.targetNanos()).isEqualTo(4 * 8_191 * US);
    }

    @Test
    void aServiceSlowerForGoodIsFollowedNeverLowered() {
        firstSecond();
        second(100, 0, 8_191);                            // a target of 16.382 ms
        assertThat(target.follow(50 * MS)).isEqualTo(100 * MS);
        assertThat(target.targetNanos()).isEqualTo(100 * MS);
        assertThat(target.follow(10 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void neverBelowTheMinimum() {
        second(100, 0, 300);                              // a provisional 1.2 ms
        assertThat(target.targetNanos()).isEqualTo(5 * MS);
        second(100, 0, 300);
        assertThat(target.targetNanos()).isEqualTo(5 * MS);
        assertThatThrownBy(() -> new EstimatedTarget(0)).hasMessage("minNanos must be > 0, got 0");
    }

    @Test
    void eachBucketHoldsValuesWithinAnEighthOfItsTop() {
        for (long v = 0; v < 1L << 40; v = v < 64 ? v + 1 : v + v / 37) {
            long top = EstimatedTarget.upperMicros(EstimatedTarget.bucket(v));
            assertThat(top).as("top of the bucket of %d", v).isGreaterThanOrEqualTo(v).isLessThanOrEqualTo(v + v / 8);
        }
        assertThat(EstimatedTarget.bucket(Long.MAX_VALUE)).isLessThan((64 - 3) * 8);
    }
}
