package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** CUBIC on a scripted clock: slow start, the backoff from what the service took, and the curve back. */
class CubicLimitTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private long now = 1_000 * S;

    private static CubicLimit limit() {
        return CubicLimit.builder().initialLimit(10).doubling(Duration.ofMillis(100)).build();
    }

    /** One busy sample {@code afterMillis} after the previous one; returns the limit. */
    private int busy(CubicLimit limit, long afterMillis) {
        now += afterMillis * MS;
        limit.onSample(now, 5 * MS, limit.limit(), false);
        return limit.limit();
    }

    private int drop(CubicLimit limit, long afterMillis, int taking) {
        now += afterMillis * MS;
        limit.onSample(now, 30 * MS, taking, true);
        return limit.limit();
    }

    @Test
    void slowStartDoublesPerDoublingOfSampleTimeWhileBusy() {
        CubicLimit limit = limit();
        assertThat(busy(limit, 0)).isEqualTo(10);       // the first sample has no elapsed time
        assertThat(busy(limit, 100)).isEqualTo(20);
        assertThat(busy(limit, 100)).isEqualTo(40);
        assertThat(busy(limit, 50)).isEqualTo(56);      // 40 * 2^0.5
        assertThat(limit.inSlowStart()).isTrue();
    }

    private void sample(CubicLimit limit, long afterMillis, long rttMillis) {
        now += afterMillis * MS;
        limit.onSample(now, rttMillis * MS, limit.limit(), false);
    }

    @Test
    void slowStartDoublesFourTimesSlowerOnceLatencyHasRisenAndItsDropClimbsBackToHalfway() {
        CubicLimit limit = CubicLimit.builder().initialLimit(10).build();   // doubling 400 ms, rounds of 100 ms
        sample(limit, 0, 2);
        for (int i = 0; i < 16; i++) {
            sample(limit, 25, 2);                        // 400 ms answered in 2 ms: one doubling
        }
        assertThat(limit.limit()).isBetween(19, 20);
        for (int i = 0; i < 7; i++) {
            sample(limit, 25, 12);                       // 12 ms, 10 over the lowest round: a rise, seen once a
        }                                                // whole round has shown it
        int before = limit.limit();                      // 10 * 2^(575 / 400) = 27.1
        for (int i = 0; i < 16; i++) {
            sample(limit, 25, 12);
        }
        assertThat(limit.limit()).isBetween(31, 33);     // 400 ms more doubles 1.6 s: 27.1 * 2^0.25 = 32.2, not 54
        assertThat(before).isEqualTo(27);
        // Its drop restarts at 0.6 times what the service took, on a curve back to halfway: 30 * 0.8 = 24, reached
        // after k = cbrt(6 / 0.1) = 3.91 s
        assertThat(drop(limit, 0, 30)).isEqualTo(18);
        assertThat(busy(limit, 1_000)).isEqualTo(21);    // 24 - 0.1 * 2.91^3 = 21.5
    }

    @Test
    void anIdleServiceGrowsNothing() {
        CubicLimit limit = limit();
        busy(limit, 0);
        for (int i = 0; i < 20; i++) {
            now += 100 * MS;
            limit.onSample(now, 5 * MS, 4, false);      // 4 * 2 < 10
        }
        assertThat(limit.limit()).isEqualTo(10);
    }

    @Test
    void aDropBacksOffFromWhatTheServiceTookNotFromAnOvershootingLimit() {
        CubicLimit limit = limit();
        busy(limit, 0);
        busy(limit, 300);                                // 80 after three doublings
        assertThat(drop(limit, 100, 50)).isEqualTo(30);  // floor(0.6 * min(80, 50)): slow start's own backoff
        assertThat(limit.inSlowStart()).isFalse();
        assertThat(busy(limit, 400)).isEqualTo(30);      // the curve starts flat there: 30 + 0.1 * 0.4^3
        assertThat(busy(limit, 2_000)).isEqualTo(31);    // 30 + 0.1 * 2.4^3 = 31.4
        assertThat(drop(limit, 100, 100)).isEqualTo(28); // floor(0.9 * min(31.4, 100)): the ordinary backoff
    }

    /** A limit of 100 out of slow start (167 * 0.6), on a flat curve from there. */
    private CubicLimit pastSlowStart() {
        CubicLimit limit = CubicLimit.builder().initialLimit(167).build();
        drop(limit, 0, 1_000);
        assertThat(limit.inSlowStart()).isFalse();
        assertThat(limit.limit()).isEqualTo(100);
        return limit;
    }

    @Test
    void afterADropTheCurveFlattensBelowWhatTheServiceTookThenProbesPastIt() {
        CubicLimit limit = pastSlowStart();
        // 90, flattening out at 95 (halfway to what the service took) after k = cbrt(5 / 0.1) = 3.68 s
        assertThat(drop(limit, 0, 100)).isEqualTo(90);
        assertThat(busy(limit, 1_000)).isEqualTo(93);     // 95 + 0.1 * (1 - 3.68)^3 = 93.1
        assertThat(busy(limit, 3_000)).isEqualTo(95);     // at 4 s: 95.003
        assertThat(busy(limit, 2_000)).isEqualTo(96);     // at 6 s: 95 + 0.1 * 2.32^3 = 96.2
        assertThat(busy(limit, 2_000)).isEqualTo(103);    // at 8 s: 95 + 0.1 * 4.32^3 = 103.1
    }

    @Test
    void pastTheOldCeilingTheLimitSearchesForTheNewOneExponentially() {
        CubicLimit limit = pastSlowStart();
        drop(limit, 0, 100);                              // 90, flattening out at 95
        assertThat(busy(limit, 8_000)).isEqualTo(103);    // under 95 * 1.125 = 106.9
        assertThat(busy(limit, 1_000)).isEqualTo(110);    // at 9 s: 110.1, an eighth past the old ceiling
        assertThat(busy(limit, 800)).isEqualTo(155);      // from there it doubles every 4 * 400 ms: * 2^0.5
        assertThat(drop(limit, 100, 150)).isEqualTo(135); // until the next drop: floor(0.9 * min(155.6, 150))
        assertThat(busy(limit, 1_600)).isEqualTo(140);    // and the curve again: 142.5 - 0.1 * (4.22 - 1.6)^3
    }

    @Test
    void idleTimeDoesNotAdvanceTheCurve() {
        CubicLimit limit = pastSlowStart();
        drop(limit, 0, 100);
        busy(limit, 1_000);                               // 93
        for (int i = 0; i < 100; i++) {
            now += 100 * MS;
            limit.onSample(now, 5 * MS, 10, false);       // ten idle seconds
        }
        assertThat(limit.limit()).isEqualTo(93);
        assertThat(busy(limit, 1_000)).isEqualTo(94);     // at 2 s of busy time: 95 - 0.1 * 1.68^3 = 94.5
    }

    @Test
    void theBoundsHold() {
        CubicLimit limit = CubicLimit.builder().initialLimit(3).minLimit(2).maxLimit(50).build();
        busy(limit, 0);
        assertThat(busy(limit, 3_000)).isEqualTo(50);
        assertThat(drop(limit, 100, 1)).isEqualTo(2);
    }

    @Test
    void settingsAreCheckedWhenSet() {
        assertThatThrownBy(() -> CubicLimit.builder().backoffRatio(1.0))
            .hasMessage("backoffRatio not in [0.5, 1): 1.0");
        assertThatThrownBy(() -> CubicLimit.builder().scale(0)).hasMessage("scale <= 0: 0.0");
        assertThatThrownBy(() -> CubicLimit.builder().doubling(Duration.ZERO)).hasMessage("doubling <= 0: PT0S");
        assertThatThrownBy(() -> CubicLimit.builder().minLimit(10).maxLimit(5).build())
            .hasMessage("minLimit > maxLimit: 10 > 5");
    }
}
