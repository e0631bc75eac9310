package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyFiguresTest {

    @Test
    void parsesTheClientsLine() {
        assertThat(LatencyFigures.parse(" count=12 p50=10.50 p99=20.00 p999=31.25 max=40.00"))
            .isEqualTo(new LatencyFigures(12, 10.5, 20, 31.25, 40));
    }

    @Test
    void aMissingOrMalformedFieldIsAnErrorQuotingTheLine() {
        assertThatThrownBy(() -> LatencyFigures.parse("count=1 p50=1 p99=1 max=1"))
            .hasMessage("latency line without p999: 'count=1 p50=1 p99=1 max=1'");
        assertThatThrownBy(() -> LatencyFigures.parse("count=x p50=1 p99=1 p999=1 max=1"))
            .hasMessageStartingWith("malformed latency line 'count=x p50=1 p99=1 p999=1 max=1'");
    }
}
