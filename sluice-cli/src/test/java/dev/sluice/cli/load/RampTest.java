package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RampTest {

    @Test
    void theStepsGoFromFromToToByStep() {
        Ramp r = new Ramp(100, 600, 50, Duration.ofSeconds(5));
        assertThat(r.rates()).containsExactly(100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600);
        assertThat(r.steps()).isEqualTo(11);
        assertThat(r.duration()).isEqualTo(Duration.ofSeconds(55));
        assertThat(Ramp.constant(42, Duration.ofSeconds(3)).rates()).isEqualTo(List.of(42));
        assertThat(r.describe()).isEqualTo("100..600/s by 50");
        assertThat(Ramp.constant(42, Duration.ofSeconds(3)).describe()).as("a constant load").isEqualTo("42/s");
    }

    @Test
    void wrongRampsAreRefusedWithTheirValues() {
        Duration d = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new Ramp(0, 10, 1, d)).hasMessage("expected 1 <= from <= to <= 10000000, got from=0"
            + " to=10");
        assertThatThrownBy(() -> new Ramp(600, 100, 50, d)).hasMessage("expected 1 <= from <= to <= 10000000, got"
            + " from=600 to=100");
        assertThatThrownBy(() -> new Ramp(100, 600, 0, d)).hasMessage("step < 1: 0");
        assertThatThrownBy(() -> new Ramp(100, 600, 70, d)).hasMessage("to - from is not a multiple of step:"
            + " from=100 to=600 step=70");
        assertThatThrownBy(() -> new Ramp(1, 100_000, 1, d)).hasMessage("more than 10000 steps: from=1 to=100000"
            + " step=1");
        assertThatThrownBy(() -> new Ramp(1, 1, 1, Duration.ZERO)).hasMessage("step duration must be > 0 and"
            + " < 2^31 s, got PT0S");
        assertThatThrownBy(() -> new Ramp(1, 2, 1, d).rate(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
