package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TransportReportTest {

    private static CellResult result(Impl impl, Interaction i, int size, Transport t, Long... figures) {
        return new CellResult(Cell.max(impl, i, size, t), List.of(figures), null, null, List.of());
    }

    private static CellResult failed(Impl impl, Interaction i, int size, Transport t) {
        return new CellResult(Cell.max(impl, i, size, t), List.of(), null, "the server exited", List.of());
    }

    @Test
    void targetsAreTheIssues() {
        // rows: implementation, transport -> share of TCP Sluice must keep (NaN: none set)
        assertThat(TransportReport.shareTarget(Impl.SLUICE, Transport.UNIX)).isEqualTo(1.0);
        assertThat(TransportReport.shareTarget(Impl.SLUICE, Transport.WS)).isEqualTo(0.70);
        assertThat(TransportReport.shareTarget(Impl.SLUICE, Transport.TLS)).isNaN();
        assertThat(TransportReport.shareTarget(Impl.RSOCKET_JAVA, Transport.UNIX)).isNaN();
        // rows: peer, interaction, size -> Sluice's ratio to the peer with TLS on for both (NaN: none set)
        assertThat(TransportReport.tlsTarget(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 4)).isEqualTo(5);
        assertThat(TransportReport.tlsTarget(Impl.GRPC_JAVA, Interaction.RESPONSE, 4)).isEqualTo(12);
        assertThat(TransportReport.tlsTarget(Impl.GRPC_JAVA, Interaction.STREAM, 4)).isEqualTo(3);
        assertThat(TransportReport.tlsTarget(Impl.GRPC_JAVA, Interaction.STREAM, 140)).isEqualTo(3);
        assertThat(TransportReport.tlsTarget(Impl.GRPC_JAVA, Interaction.RESPONSE, 140)).isNaN();
        assertThat(TransportReport.tlsTarget(Impl.RSOCKET_JAVA, Interaction.STREAM, 4)).isNaN();
    }

    @Test
    void eachTransportReadsAsARatioToTheSameCellOverTcp() {
        List<CellResult> results = List.of(
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.TCP, 4_000_000L),
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.TLS, 3_000_000L),
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.UNIX, 4_400_000L),
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.WS, 2_000_000L),
            result(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 4, Transport.TCP, 500_000L),
            failed(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 4, Transport.TLS),
            result(Impl.GRPC_JAVA, Interaction.RESPONSE, 4, Transport.TLS, 200_000L));
        assertThat(TransportReport.transportTable(results, List.of(Transport.TCP, Transport.TLS, Transport.UNIX,
            Transport.WS))).isEqualTo("""
            | implementation | interaction | payload | TCP | TLS (÷ TCP) | Unix socket (÷ TCP) | WebSocket (÷ TCP) |
            |---|---|---|---|---|---|---|
            | Sluice | request-response | 4 B | 4.00 M (4.00–4.00 M) | 3.00 M (3.00–3.00 M) · 0.75× \
            | 4.40 M (4.40–4.40 M) · 1.10× (target ≥ 1.00×: met) \
            | 2.00 M (2.00–2.00 M) · 0.50× (target ≥ 0.70×: NOT met) |
            | rsocket-java | request-response | 4 B | 0.500 M (0.500–0.500 M) | failed | — | — |
            | grpc-java | request-response | 4 B | — | 0.200 M (0.200–0.200 M) · no TCP cell | — | — |
            """);
        assertThat(TransportReport.transportTable(results, List.of(Transport.TCP))).isEmpty();
    }

    @Test
    void theTlsRatiosCompareStacksWithTlsOnForAll() {
        List<CellResult> results = List.of(
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.TCP, 9_000_000L),
            result(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.TLS, 3_000_000L),
            result(Impl.RSOCKET_JAVA, Interaction.RESPONSE, 4, Transport.TLS, 500_000L),
            result(Impl.GRPC_JAVA, Interaction.RESPONSE, 4, Transport.TLS, 200_000L),
            result(Impl.GRPC_JAVA, Interaction.RESPONSE, 4, Transport.TCP, 100_000L),
            result(Impl.SLUICE, Interaction.STREAM, 140, Transport.TLS, 2_000_000L),
            result(Impl.GRPC_JAVA, Interaction.STREAM, 140, Transport.TLS, 1_000_000L),
            failed(Impl.RSOCKET_JAVA, Interaction.STREAM, 140, Transport.TLS));
        assertThat(TransportReport.tlsRatioTable(results)).isEqualTo("""
            | interaction | payload | Sluice / rsocket-java, both TLS | Sluice / grpc-java, both TLS |
            |---|---|---|---|
            | request-response | 4 B | 6.00× (target ≥ 5×: met) | 15.00× (target ≥ 12×: met) |
            | request-stream | 140 B | n/a (failed) | 2.00× (target ≥ 3×: NOT met) |
            """);
        assertThat(TransportReport.tlsRatioTable(results.subList(0, 2))).isEmpty();
    }
}
