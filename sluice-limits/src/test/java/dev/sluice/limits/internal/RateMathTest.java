package dev.sluice.limits.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RateMathTest {

    @Test
    void secondsSplitsWholeSecondsFromTheFraction() {
        // 2^53 + 1 ns does not fit a double's mantissa: converted at once it would round; split, the seconds are
        // exact and only the fraction rounds (golang/go#34861).
        long d = (1L << 53) + 1;
        assertThat(RateMath.seconds(d)).isEqualTo((double) (d / 1_000_000_000L) + (d % 1_000_000_000L) / 1e9);
        assertThat(RateMath.seconds(1_500_000_000L)).isEqualTo(1.5);
        assertThat(RateMath.seconds(-1_500_000_000L)).isEqualTo(-1.5);
        assertThat(RateMath.seconds(Long.MAX_VALUE)).isEqualTo(9223372036.854775807);
    }

    @Test
    void zeroLimitAccumulatesNothingAndNeverDelivers() {
        assertThat(RateMath.tokensFromDuration(0, Long.MAX_VALUE)).isZero();
        assertThat(RateMath.durationFromTokens(0, 1)).isEqualTo(RateMath.INF_DURATION);
    }

    @Test
    void durationFromTokensTruncatesAndCapsOverflow() {
        assertThat(RateMath.durationFromTokens(3, 1)).isEqualTo(333_333_333L);
        assertThat(RateMath.durationFromTokens(3, -1)).isEqualTo(-333_333_333L);
        // golang/go#71154: 1 token at 1e-10/s is 1e19 ns, more than a long holds.
        assertThat(RateMath.durationFromTokens(1e-10, 1)).isEqualTo(RateMath.INF_DURATION);
        assertThat(RateMath.durationFromTokens(1e-10, -1)).isEqualTo(Long.MIN_VALUE);
        // Exactly 2^63 ns is out of range too (Go would wrap it to MinInt64 on amd64).
        assertThat(0x1p63 / 1e9 * 1e9).as("precondition: the product is exactly 2^63").isEqualTo(0x1p63);
        assertThat(RateMath.durationFromTokens(1e9, 0x1p63)).isEqualTo(RateMath.INF_DURATION);
    }

    @Test
    void saturatingArithmetic() {
        assertThat(RateMath.saturatingSub(Long.MAX_VALUE, -1)).isEqualTo(Long.MAX_VALUE);
        assertThat(RateMath.saturatingSub(Long.MIN_VALUE, 1)).isEqualTo(Long.MIN_VALUE);
        assertThat(RateMath.saturatingSub(-1, Long.MIN_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(RateMath.saturatingSub(5, 7)).isEqualTo(-2);
        assertThat(RateMath.saturatingAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(RateMath.saturatingAdd(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
        assertThat(RateMath.saturatingAdd(-5, 7)).isEqualTo(2);
    }

    @Test
    void checksQuoteTheValue() {
        assertThatThrownBy(() -> RateMath.checkN(-1)).hasMessage("n < 0: -1");
        assertThatThrownBy(() -> RateMath.checkBurst(-2)).hasMessage("burst < 0: -2");
        assertThatThrownBy(() -> RateMath.checkLimit(-0.5)).hasMessage("limit < 0 or NaN: -0.5");
        assertThatThrownBy(() -> RateMath.checkLimit(Double.NaN)).hasMessage("limit < 0 or NaN: NaN");
        assertThat(RateMath.checkLimit(Double.POSITIVE_INFINITY)).isEqualTo(RateMath.INF);
    }
}
