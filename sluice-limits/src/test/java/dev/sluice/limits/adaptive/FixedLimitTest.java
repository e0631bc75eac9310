package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fixed limit, and the listener contract every limit shares. */
class FixedLimitTest {

    @Test
    void samplesDoNotMoveIt() {
        FixedLimit limit = FixedLimit.of(7);
        LatencyScript s = new LatencyScript(limit);
        assertThat(s.busy(10, 1)).isEqualTo(7);
        assertThat(s.dropped(10, 500)).isEqualTo(7);
        assertThatThrownBy(() -> FixedLimit.of(0)).hasMessage("limit < 1: 0");
    }

    @Test
    void listenersHearEachChangeOfTheWholeLimitOnce() {
        AimdLimit limit = AimdLimit.builder().initialLimit(10).minLimit(1).increase(0.5).build();
        List<Integer> heard = new ArrayList<>();
        limit.onChange(heard::add);
        LatencyScript s = new LatencyScript(limit);
        s.busy(4, 1);      // 10.5, 11, 11.5, 12
        s.dropped(1, 1);   // floor(12 * 0.9) = 10
        assertThat(heard).containsExactly(11, 12, 10);
    }

    @Test
    void aNegativeLatencyIsRefused() {
        assertThatThrownBy(() -> FixedLimit.of(1).onSample(0, -1, 1, false)).hasMessage("rttNanos < 0: -1");
    }
}
