package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static CellResult result(Impl impl, Interaction i, int size, Long... figures) {
        return new CellResult(Cell.max(impl, i, size), List.of(figures), null, null, List.of());
    }

    @Test
    void targetsAreTheIssues() {
        // rows: peer, interaction, size -> target ratio (NaN: none set)
        assertThat(BenchReport.target(Impl.GRPC_JAVA, Interaction.STREAM, 4)).isEqualTo(3);
        assertThat(BenchReport.target(Impl.GRPC_JAVA, Interaction.STREAM, 140)).isEqualTo(3);
        assertThat(BenchReport.target(Impl.GRPC_JAVA, Interaction.RESPONSE, 4)).isEqualTo(16);
        assertThat(BenchReport.target(Impl.GRPC_JAVA, Interaction.RESPONSE, 140)).isEqualTo(12);
        assertThat(BenchReport.target(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 140)).isEqualTo(5);
        assertThat(BenchReport.target(Impl.RSOCKET_JAVA, Interaction.CHANNEL, 4)).isNaN();
        assertThat(BenchReport.target(Impl.RSOCKET_JAVA, Interaction.STREAM, 512)).isNaN();
        assertThat(BenchReport.target(Impl.NETTY_FLOOR, Interaction.STREAM, 4)).isNaN();
    }

    @Test
    void ratesReadInMillionsWithEnoughDigits() {
        assertThat(BenchReport.rate(3_470_000)).isEqualTo("3.47 M");
        assertThat(BenchReport.rate(540_000)).isEqualTo("0.540 M");
        assertThat(BenchReport.rate(83_000)).isEqualTo("0.0830 M");
    }

    @Test
    void tablesShowMediansRangesRatiosAndWhetherTargetsWereMet() {
        List<CellResult> results = List.of(
            result(Impl.SLUICE, Interaction.RESPONSE, 4, 1_500_000L, 1_600_000L, 1_700_000L),
            result(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 4, 400_000L),
            result(Impl.GRPC_JAVA, Interaction.RESPONSE, 4, 100_000L),
            result(Impl.NETTY_FLOOR, Interaction.RESPONSE, 4, 3_200_000L),
            new CellResult(Cell.max(Impl.SLUICE, Interaction.STREAM, 4), List.of(), null, "the server exited",
                List.of()),
            result(Impl.GRPC_JAVA, Interaction.STREAM, 4, 1_000_000L));
        assertThat(BenchReport.throughputTable(results)).isEqualTo("""
            | interaction | payload | Sluice | rsocket-java | grpc-java | raw-Netty floor |
            |---|---|---|---|---|---|
            | request-response | 4 B | 1.60 M (1.50–1.70 M) | 0.400 M (0.400–0.400 M) | 0.100 M (0.100–0.100 M) \
            | 3.20 M (3.20–3.20 M) |
            | request-stream | 4 B | failed | — | 1.00 M (1.00–1.00 M) | — |
            """);
        assertThat(BenchReport.ratioTable(results)).isEqualTo("""
            | interaction | payload | Sluice / rsocket-java | Sluice / grpc-java | Sluice / raw-Netty floor |
            |---|---|---|---|---|
            | request-response | 4 B | 4.00× (target ≥ 5×: NOT met) | 16.00× (target ≥ 16×: met) | 50% |
            | request-stream | 4 B | — | n/a (failed) | — |
            """);
        assertThat(BenchReport.problems(results)).isEqualTo("- Sluice request-stream 4 B: failed: the server exited\n");
    }
}
