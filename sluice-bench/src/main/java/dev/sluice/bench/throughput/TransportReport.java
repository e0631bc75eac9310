package dev.sluice.bench.throughput;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The transport comparison of a {@code --transport} run: per cell each transport's messages per second and its
 * ratio to the same cell over plaintext TCP in the same run, against the targets for Sluice (Unix sockets at
 * least TCP's rate, WebSocket at least 70% of it); and Sluice's ratio to each peer with TLS on for every stack.
 * Only figures from the run appear; a cell that failed says so. Stateless.
 */
final class TransportReport {

    /** The share of plaintext TCP's rate Sluice must keep over a Unix socket on every cell. */
    static final double UNIX_SHARE_OF_TCP = 1.0;
    /** The share of plaintext TCP's rate Sluice must keep over WebSocket on every cell. */
    static final double WS_SHARE_OF_TCP = 0.70;

    private TransportReport() {
    }

    /** How each transport is set up, for the report: said once, so a reader can judge the comparison. */
    static String setup(String tlsProvider) {
        return "TLS: TLS 1.3 offered (and 1.2) by every stack on " + tlsProvider + ", an EC P-256 certificate for"
            + " 127.0.0.1 from a CA made for the run, each client checking the host name; Sluice's"
            + " `TlsServer`/`TlsClient`, rsocket-java's `TcpServer`/`TcpClient.secure()` (reactor-netty),"
            + " grpc-java's `GrpcSslContexts` (ALPN h2) on grpc-netty. Unix socket: Sluice's"
            + " `UnixServerTransport`/`UnixClientTransport` (epoll domain sockets) on a file in a temporary directory."
            + " WebSocket: Sluice's transport at `/rsocket`, one RSocket frame per binary message. Everything else as"
            + " in the Throughput section; a plaintext TCP figure is the same cell's over TCP in this run.";
    }

    /** The target for Sluice over {@code transport} as a share of TCP, or NaN where it sets none. */
    static double shareTarget(Impl impl, Transport transport) {
        if (impl != Impl.SLUICE) {
            return Double.NaN;
        }
        return switch (transport) {
            case UNIX -> UNIX_SHARE_OF_TCP;
            case WS -> WS_SHARE_OF_TCP;
            default -> Double.NaN;
        };
    }

    /**
     * The target for Sluice's median over {@code peer}'s with TLS on for both, or NaN where it sets none:
     * 5× rsocket-java and 12× grpc-java on request-response 4 B, 3× grpc-java on request-stream.
     */
    static double tlsTarget(Impl peer, Interaction interaction, int size) {
        if (interaction == Interaction.RESPONSE && size == 4) {
            return peer == Impl.RSOCKET_JAVA ? 5 : peer == Impl.GRPC_JAVA ? 12 : Double.NaN;
        }
        return interaction == Interaction.STREAM && peer == Impl.GRPC_JAVA ? 3 : Double.NaN;
    }

    /**
     * One row per implementation, interaction and size, one column per transport of the run: the median and
     * min–max, and for every transport but TCP its median over TCP's; empty when the run has one transport.
     */
    static String transportTable(List<CellResult> results, List<Transport> transports) {
        if (transports.size() < 2) {
            return "";
        }
        StringBuilder sb = new StringBuilder("| implementation | interaction | payload |");
        StringBuilder rule = new StringBuilder("|---|---|---|");
        for (Transport t : transports) {
            sb.append(' ').append(t.label()).append(t == Transport.TCP ? "" : " (÷ TCP)").append(" |");
            rule.append("---|");
        }
        sb.append('\n').append(rule).append('\n');
        Map<String, Map<Transport, CellResult>> rows = new LinkedHashMap<>();
        for (CellResult r : results) {
            Cell c = r.cell();
            if (!c.paced()) {
                rows.computeIfAbsent(c.impl().label() + " | " + c.interaction().label() + " | " + c.size() + " B",
                    k -> new LinkedHashMap<>()).put(c.transport(), r);
            }
        }
        rows.forEach((key, cells) -> {
            sb.append("| ").append(key).append(" |");
            CellResult tcp = cells.get(Transport.TCP);
            for (Transport t : transports) {
                CellResult r = cells.get(t);
                sb.append(' ').append(BenchReport.cellText(r));
                if (t != Transport.TCP && r != null && r.ok()) {
                    sb.append(' ').append(shareText(r, tcp));
                }
                sb.append(" |");
            }
            sb.append('\n');
        });
        return sb.toString();
    }

    private static String shareText(CellResult r, CellResult tcp) {
        if (tcp == null) {
            return "· no TCP cell";
        }
        if (!tcp.ok() || tcp.summary().median() <= 0) {
            return "· TCP failed";
        }
        double share = r.summary().median() / tcp.summary().median();
        String text = String.format(Locale.ROOT, "· %.2f×", share);
        double target = shareTarget(r.cell().impl(), r.cell().transport());
        if (Double.isNaN(target)) {
            return text;
        }
        return text + String.format(Locale.ROOT, " (target ≥ %.2f×: %s)", target, share >= target ? "met" : "NOT met");
    }

    /**
     * Sluice's median over rsocket-java's and grpc-java's, all three over TLS, per interaction and size Sluice ran over
     * TLS, with the targets; empty when the run has no TLS cell of Sluice's or of a peer's.
     */
    static String tlsRatioTable(List<CellResult> results) {
        List<CellResult> tls = results.stream()
            .filter(r -> r.cell().transport() == Transport.TLS && !r.cell().paced()).toList();
        List<Impl> peers = new ArrayList<>();
        for (Impl p : List.of(Impl.RSOCKET_JAVA, Impl.GRPC_JAVA)) {
            if (tls.stream().anyMatch(r -> r.cell().impl() == p)) {
                peers.add(p);
            }
        }
        if (peers.isEmpty() || tls.stream().noneMatch(r -> r.cell().impl() == Impl.SLUICE)) {
            return "";
        }
        StringBuilder sb = new StringBuilder("| interaction | payload |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (Impl p : peers) {
            sb.append(" Sluice / ").append(p.label()).append(", both TLS |");
            rule.append("---|");
        }
        sb.append('\n').append(rule).append('\n');
        Map<String, Map<Impl, CellResult>> rows = new LinkedHashMap<>();
        for (CellResult r : tls) {
            rows.computeIfAbsent(r.cell().interaction().label() + " | " + r.cell().size() + " B",
                k -> new LinkedHashMap<>()).put(r.cell().impl(), r);
        }
        rows.forEach((key, cells) -> {
            CellResult ours = cells.get(Impl.SLUICE);
            if (ours == null) {
                return;
            }
            sb.append("| ").append(key).append(" |");
            for (Impl p : peers) {
                sb.append(' ').append(ratioText(ours, cells.get(p), p)).append(" |");
            }
            sb.append('\n');
        });
        return sb.toString();
    }

    private static String ratioText(CellResult ours, CellResult peer, Impl p) {
        if (peer == null) {
            return "—";
        }
        if (!ours.ok() || !peer.ok() || peer.summary().median() <= 0) {
            return "n/a (failed)";
        }
        double ratio = ours.summary().median() / peer.summary().median();
        String text = String.format(Locale.ROOT, "%.2f×", ratio);
        double target = tlsTarget(p, ours.cell().interaction(), ours.cell().size());
        if (Double.isNaN(target)) {
            return text;
        }
        return text + String.format(Locale.ROOT, " (target ≥ %.0f×: %s)", target, ratio >= target ? "met"
            : "NOT met");
    }
}
