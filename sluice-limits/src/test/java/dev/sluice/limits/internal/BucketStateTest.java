package dev.sluice.limits.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts of {@link BucketState#advance} (the precomputed refill threshold and the division-free lower bound)
 * against Go's refill written out plainly: they may only skip work, never change a bit.
 */
class BucketStateTest {

    private static final long T0 = 1_000_000_000_000L;

    /** Go's advance, verbatim in meaning: no shortcut. */
    private static double goAdvance(double tokens, long last, double limit, int burst, long t) {
        long from = t < last ? t : last;
        long elapsed = RateMath.saturatingSub(t, from);
        double seconds = (double) (elapsed / 1_000_000_000L) + (double) (elapsed % 1_000_000_000L) / 1e9;
        double delta = limit <= 0 ? 0 : seconds * limit;
        double advanced = tokens + delta;
        return advanced > burst ? burst : advanced;
    }

    private static double[] limits(SplittableRandom random) {
        return new double[] {
            1e-10, 1e-3, 0.7692307692307693, 1, 3, 10, 425, 1e6, 1e8, 1e9, 3e9, 1e15, Double.MAX_VALUE,
            random.nextDouble() * 1000, random.nextDouble() * 1e-6, RateMath.every(1 + random.nextLong(1L << 40)),
        };
    }

    @Test
    void thresholdIsTightAndExact() {
        SplittableRandom random = new SplittableRandom(1);
        for (int round = 0; round < 50; round++) {
            for (double limit : limits(random)) {
                for (int burst : new int[] {1, 2, 3, 10, 1 + random.nextInt(1 << 20), Integer.MAX_VALUE}) {
                    BucketConfig config = new BucketConfig(limit, burst);
                    long e = config.fullAfterOneToken;
                    double tokens = burst - 1.0;
                    if (e == BucketConfig.NEVER) {
                        assertThat(goAdvance(tokens, T0, limit, burst, Long.MAX_VALUE)).isLessThan(burst);
                        continue;
                    }
                    // Not full after exactly e ns; full after e + 1.
                    assertThat(tokens + RateMath.tokensFromDuration(limit, e)).as("limit %s burst %d", limit, burst)
                            .isLessThan(burst);
                    assertThat(tokens + RateMath.tokensFromDuration(limit, e + 1)).isGreaterThanOrEqualTo(burst);
                }
            }
        }
    }

    @Test
    void advanceEqualsGoAroundTheThresholdAndEverywhereElse() {
        SplittableRandom random = new SplittableRandom(2);
        int checked = 0;
        for (int round = 0; round < 200; round++) {
            for (double limit : limits(random)) {
                int burst = 1 + random.nextInt(random.nextBoolean() ? 4 : 1 << 24);
                BucketConfig config = new BucketConfig(limit, burst);
                double[] tokenValues = {burst - 1.0, burst, 0, -1, burst - 0.5, -random.nextDouble() * burst,
                    random.nextDouble() * burst};
                for (double tokens : tokenValues) {
                    BucketState s = BucketState.after(config, tokens, T0);
                    long e = config.fullAfterOneToken == BucketConfig.NEVER ? random.nextLong(1L << 40)
                            : config.fullAfterOneToken;
                    long[] elapsed = {0, 1, e - 1, e, e + 1, e + 2, random.nextLong(1L << 36),
                        random.nextLong(Long.MAX_VALUE), Long.MAX_VALUE - T0, -random.nextLong(1L << 30)};
                    for (long d : elapsed) {
                        long t = T0 + d;
                        assertThat(s.advance(t)).as("limit %s burst %d tokens %s elapsed %d", limit, burst, tokens, d)
                                .isEqualTo(goAdvance(tokens, T0, limit, burst, t));
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100_000);
    }

    @Test
    void aNewBucketIsFullAtEveryInstant() {
        BucketState s = BucketState.initial(new BucketConfig(1e-10, 7));
        for (long t : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            assertThat(s.advance(t)).isEqualTo(7.0);
            assertThat(goAdvance(7, Long.MIN_VALUE, 1e-10, 7, t)).isEqualTo(7.0);
        }
    }
}
