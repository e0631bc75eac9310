package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static CellResult result(Impl impl, Interaction i, int size, Long... figures) {
        return new CellResult(Cell.max(impl, i, size), List.of(figures), null, null, List.of());
    }

    /**
     * Request-response 4 B cells of two implementations taken in turn, round after round, each run one figure: the
     * figures alternate {@code first}, {@code second}, ...; null is a run that failed.
     */
    private static List<CellResult> rounds(Impl first, Impl second, Long... figures) {
        List<CellResult> results = new ArrayList<>();
        for (int i = 0; i < figures.length; i++) {
            Impl impl = i % 2 == 0 ? first : second;
            results.add(figures[i] == null
                ? new CellResult(Cell.max(impl, Interaction.RESPONSE, 4), List.of(), null, "the server exited",
                    List.of())
                : result(impl, Interaction.RESPONSE, 4, figures[i]));
        }
        return results;
    }

    private static CellResult paced(Impl impl, long rate, double p99, long achieved) {
        return new CellResult(new Cell(impl, Interaction.RESPONSE, 4, rate, Transport.TCP), List.of(achieved),
            new LatencyFigures(1000, p99 / 10, p99, p99 * 2, p99 * 3), null, List.of());
    }

    private static CellResult busy(Impl impl, double server, double client) {
        return new CellResult(Cell.max(impl, Interaction.RESPONSE, 4), List.of(1_000_000L), null, null, List.of(),
            new CoreShares(server, client));
    }

    @Test
    void theCoresTableShowsEachCellsMedianShareOverItsRuns() {
        List<CellResult> results = List.of(busy(Impl.SLUICE, 0.94, 0.96), busy(Impl.NETTY_FLOOR, 0.87, 0.86),
            busy(Impl.SLUICE, 0.90, 0.98), busy(Impl.NETTY_FLOOR, 0.89, 0.88), busy(Impl.SLUICE, 0.92, 0.97),
            busy(Impl.NETTY_FLOOR, 0.99, 0.99));
        assertThat(BenchReport.coreTable(results)).isEqualTo("| interaction | payload | Sluice | raw-Netty floor |\n"
            + "|---|---|---|---|\n"
            + "| request-response | 4 B | server 92% · client 97% | server 89% · client 88% |\n");
    }

    @Test
    void aShareAgainstAFloorThatWaitedSaysSo() {
        String waiting = BenchReport.ratioTable(List.of(busy(Impl.SLUICE, 0.93, 0.97),
            busy(Impl.NETTY_FLOOR, 0.86, 0.87)));
        assertThat(waiting).contains("raw-Netty floor waited (cores server 86% · client 87%): below its capacity,"
            + " so this reads high");
        String busyFloor = BenchReport.ratioTable(List.of(busy(Impl.SLUICE, 0.93, 0.97),
            busy(Impl.NETTY_FLOOR, 0.86, 0.95)));
        assertThat(busyFloor).doesNotContain("waited");
    }

    @Test
    void aShareWhoseOwnCellWaitedSaysItReadsLow() {
        assertThat(BenchReport.ratioTable(List.of(busy(Impl.SLUICE, 0.60, 0.62), busy(Impl.NETTY_FLOOR, 0.95, 0.97))))
            .contains("Sluice waited (cores server 60% · client 62%): below its capacity, so this reads low")
            .doesNotContain("floor waited");
    }

    @Test
    void noCoresTableWithoutMeasuredCells() {
        assertThat(BenchReport.coreTable(List.of(result(Impl.SLUICE, Interaction.RESPONSE, 4, 1L)))).isEmpty();
    }

    @Test
    void theLatencyTableShowsHowBusyEachSideWasAtTheOfferedRate() {
        CellResult run = paced(Impl.NETTY_FLOOR, 8_000_000, 2_000, 8_000_000);
        CellResult measured = new CellResult(run.cell(), run.perSecond(), run.latency(), null, List.of(),
            new CoreShares(0.74, 0.81));
        String table = BenchReport.latencyTable(List.of(measured));
        assertThat(table).startsWith("| implementation | interaction | payload | offered msgs/s | achieved (median)"
            + " | p50 µs | p99 µs | p99.9 µs | max µs | cores busy (median) |\n"
            + "|---|---|---|---|---|---|---|---|---|---|\n");
        assertThat(table).endsWith(" | server 74% · client 81% |\n");
    }

    @Test
    void aLatencyRunMadeOnceIsOneRowOfItsFigures() {
        String table = BenchReport.latencyTable(List.of(paced(Impl.SLUICE, 3_000_000, 1_500, 3_000_000)));
        assertThat(table).isEqualTo("| implementation | interaction | payload | offered msgs/s | achieved (median)"
            + " | p50 µs | p99 µs | p99.9 µs | max µs |\n|---|---|---|---|---|---|---|---|---|\n"
            + "| Sluice | request-response | 4 B | 3,000,000 | 3.00 M | 150.0 | 1500.0 | 3000.0 | 4500.0 |\n");
    }

    @Test
    void repeatedLatencyRunsShowTheMedianOfEachFigureAndEveryRunsP99InOrder() {
        CellResult failed = new CellResult(new Cell(Impl.NETTY_FLOOR, Interaction.RESPONSE, 4, 6_000_000,
            Transport.TCP), List.of(), null, "the server exited", List.of());
        String table = BenchReport.latencyTable(List.of(
            paced(Impl.SLUICE, 3_000_000, 1_000, 2_990_000), paced(Impl.NETTY_FLOOR, 6_000_000, 400, 6_000_000),
            paced(Impl.SLUICE, 3_000_000, 9_000, 2_900_000), failed,
            paced(Impl.SLUICE, 3_000_000, 2_000, 3_000_000), paced(Impl.NETTY_FLOOR, 6_000_000, 600, 5_990_000)));
        assertThat(table.lines().toList()).containsExactly(
            "| implementation | interaction | payload | offered msgs/s | achieved (median) | p50 µs | p99 µs"
                + " | p99.9 µs | max µs | p99 of each run, µs |",
            "|---|---|---|---|---|---|---|---|---|---|",
            "| Sluice | request-response | 4 B | 3,000,000 | 2.99 M | 200.0 | 2000.0 | 4000.0 | 6000.0"
                + " | 1,000.0 · 9,000.0 · 2,000.0 |",
            // The failed run is shown and left out of the medians: two runs, so the mean of the two.
            "| raw-Netty floor | request-response | 4 B | 6,000,000 | 6.00 M | 50.0 | 500.0 | 1000.0 | 1500.0"
                + " | 400.0 · failed · 600.0 |");
    }

    @Test
    void repeatedCellsShowTheMedianOfTheirRunsAndRatiosTheMedianOfEachRoundsRatio() {
        // Three rounds, each running Sluice then the floor; the floor's second run was disturbed, Sluice's third
        // failed.
        List<CellResult> results = rounds(Impl.SLUICE, Impl.NETTY_FLOOR,
            5_000_000L, 10_000_000L, 6_000_000L, 6_000_000L, null, 11_000_000L);
        assertThat(BenchReport.throughputTable(results)).isEqualTo("""
            | interaction | payload | Sluice | raw-Netty floor |
            |---|---|---|---|
            | request-response | 4 B | 5.50 M (runs 5.00 · 6.00 · failed) | 10.00 M (runs 10.00 · 6.00 · 11.00) |
            """);
        // Rounds' ratios 50% and 100%: their median is their mean, 75%; the third round has no ratio.
        assertThat(BenchReport.ratioTable(results)).isEqualTo("""
            | interaction | payload | Sluice / raw-Netty floor |
            |---|---|---|
            | request-response | 4 B | 75% (rounds 50% · 100% · failed) |
            """);
    }

    @Test
    void repeatedRpcCellsJudgeTheTargetOnTheMedianOfTheRounds() {
        List<CellResult> results = rounds(Impl.SLUICE, Impl.SLUICE_RPC,
            4_000_000L, 3_200_000L, 4_000_000L, 2_800_000L, 4_000_000L, 3_100_000L);
        assertThat(BenchReport.rpcRatioTable(results)).contains(
            "| request-response | 4 B | 78% (rounds 80% · 70% · 78%; target ≥ 75%: met) |");
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
