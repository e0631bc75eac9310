package dev.sluice.bench.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PairedRatioTest {

    @Test
    void theMedianIsTheMiddleRatio() {
        double[] ratios = {1.3, 0.9, 1.1, 1.0, 1.2};
        PairedRatio ratio = PairedRatio.of(ratios);
        assertThat(ratio.median()).isEqualTo(1.1);
        assertThat(ratio.rounds()).isEqualTo(5);
        assertThat(ratios).containsExactly(1.3, 0.9, 1.1, 1.0, 1.2);
    }

    @Test
    void equalRatiosLeaveNoDoubt() {
        PairedRatio ratio = PairedRatio.of(new double[] {1.02, 1.02, 1.02, 1.02});
        assertThat(ratio.low()).isEqualTo(1.02);
        assertThat(ratio.high()).isEqualTo(1.02);
    }

    @Test
    void theIntervalHoldsTheMedianAndNarrowsWithMoreRounds() {
        PairedRatio few = PairedRatio.of(noisy(40));
        PairedRatio many = PairedRatio.of(noisy(4000));
        for (PairedRatio ratio : new PairedRatio[] {few, many}) {
            assertThat(ratio.low()).isLessThanOrEqualTo(ratio.median());
            assertThat(ratio.high()).isGreaterThanOrEqualTo(ratio.median());
        }
        assertThat(many.high() - many.low()).isLessThan((few.high() - few.low()) / 3);
        // Ratios spread evenly around 1: the interval of many rounds holds 1, and is about +-0.02 wide.
        assertThat(many.low()).isBetween(0.97, 1.0);
        assertThat(many.high()).isBetween(1.0, 1.03);
    }

    @Test
    void aClearLeadIsOutsideTheInterval() {
        double[] ratios = noisy(200);
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] += 0.2;
        }
        assertThat(PairedRatio.of(ratios).low()).isGreaterThan(1.0);
    }

    @Test
    void theSameRatiosGiveTheSameInterval() {
        assertThat(PairedRatio.of(noisy(100))).isEqualTo(PairedRatio.of(noisy(100)));
    }

    @Test
    void refusesNoRatios() {
        assertThatThrownBy(() -> PairedRatio.of(new double[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no ratios");
    }

    /** Ratios spread uniformly over 0.8-1.2. */
    private static double[] noisy(int n) {
        SplittableRandom random = new SplittableRandom(7);
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = 0.8 + 0.4 * random.nextDouble();
        }
        return ratios;
    }
}
