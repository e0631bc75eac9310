package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** AIMD on scripted latency: one step up per good sample, a tenth off per slow or dropped one. */
class AimdLimitTest {

    private static AimdLimit limit() {
        return AimdLimit.builder().initialLimit(20).minLimit(5).maxLimit(100)
            .timeout(Duration.ofMillis(20)).build();
    }

    @Test
    void steadyLatencyUnderTheTimeoutGrowsTheLimitUpToItsMax() {
        LatencyScript s = new LatencyScript(limit());
        assertThat(s.busy(1, 5)).isEqualTo(21);
        assertThat(s.busy(9, 5)).isEqualTo(30);
        assertThat(s.busy(1_000, 5)).isEqualTo(100);
    }

    @Test
    void aLatencyStepPastTheTimeoutShrinksItMultiplicativelyThenRecoveryAddsOneAtATime() {
        AimdLimit limit = limit();
        LatencyScript s = new LatencyScript(limit);
        s.busy(80, 5);                         // 100
        assertThat(s.busy(1, 50)).isEqualTo(90);
        assertThat(s.busy(4, 50)).isEqualTo(57); // 81, 72, 64, 57: floored at each step
        assertThat(s.busy(100, 50)).isEqualTo(5);  // held at min
        assertThat(s.busy(10, 5)).isEqualTo(15);   // cautious: +1 per sample
    }

    @Test
    void aDropShrinksEvenWhenFast() {
        LatencyScript s = new LatencyScript(AimdLimit.builder().initialLimit(30).build());
        assertThat(s.dropped(1, 1)).isEqualTo(27);
    }

    @Test
    void anIdleServiceDoesNotGrowTheLimit() {
        LatencyScript s = new LatencyScript(limit());
        assertThat(s.idle(100, 5)).isEqualTo(20);
    }

    @Test
    void settingsAreCheckedWhenSet() {
        assertThatThrownBy(() -> AimdLimit.builder().backoffRatio(1.0))
            .hasMessage("backoffRatio not in [0.5, 1): 1.0");
        assertThatThrownBy(() -> AimdLimit.builder().minLimit(10).maxLimit(5).build())
            .hasMessage("minLimit > maxLimit: 10 > 5");
    }
}
