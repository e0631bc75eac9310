package dev.sluice.cli.load;

import java.util.Locale;
import java.util.Map;

/**
 * A load run as text for a terminal: one compact line per second (responses per server, p99 latency, rejected),
 * and a summary table at the end.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConsoleReport {

    private ConsoleReport() {
    }

    /**
     * One line for one second, e.g.
     * {@code [  3s] sent 1000 | responses 300 (127.0.0.1:7001 100, 127.0.0.1:7002 200) p99 19.1 ms | rejected 700
     * | failed 0 | in flight 4}.
     */
    public static String second(SecondStats s) {
        StringBuilder b = new StringBuilder(160);
        b.append(String.format(Locale.ROOT, "[%3ds] sent %d | responses %d", s.second() + 1, s.sent(),
            s.responses()));
        if (!s.responsesByServer().isEmpty()) {
            b.append(" (");
            String sep = "";
            for (Map.Entry<String, Long> e : s.responsesByServer().entrySet()) {
                b.append(sep).append(e.getKey()).append(' ').append(e.getValue());
                sep = ", ";
            }
            b.append(')');
        }
        if (!s.responseLatency().isEmpty()) {
            b.append(" p99 ").append(Latency.format(s.responseLatency().p99Micros()));
        }
        b.append(" | rejected ").append(s.rejected());
        if (!s.rejectionLatency().isEmpty()) {
            b.append(" p99 ").append(Latency.format(s.rejectionLatency().p99Micros()));
        }
        b.append(" | failed ").append(s.failed()).append(" | in flight ").append(s.inFlight());
        return b.toString();
    }

    /** The summary table of a run, several lines, ending with a line break. */
    public static String summary(LoadSummary s) {
        StringBuilder b = new StringBuilder(1024);
        double seconds = s.duration().toNanos() / 1e9;
        b.append(String.format(Locale.ROOT, "sent %d requests in %s s: %.1f/s achieved of %s planned"
            + " (largest send delay behind schedule %s), payload %d bytes%n", s.sent(), trim(seconds),
            s.achievedRate(), s.ramp().describe(), Latency.format(s.maxSendLagMicros()), s.payloadSize()));
        String header = "%-22s %9s %9s %9s %9s %9s %9s%n";
        b.append(String.format(Locale.ROOT, header, "outcome", "count", "per s", "p50", "p90", "p99", "max"));
        row(b, "responses", s.successes(), s.perSecond(s.successes()), s.successLatency());
        row(b, "rejected", s.rejected(), s.perSecond(s.rejected()), s.rejectionLatency());
        // Only a run with a request timeout has timeouts; without one the table keeps its three outcomes.
        if (s.timeout() != null) {
            row(b, "timed out", s.timedOut(), s.perSecond(s.timedOut()), Latency.NONE);
        }
        row(b, "failed", s.failed(), s.perSecond(s.failed()), Latency.NONE);
        for (Map.Entry<String, Long> e : s.responsesByServer().entrySet()) {
            row(b, "  " + e.getKey(), e.getValue(), s.perSecond(e.getValue()), Latency.NONE);
        }
        for (Map.Entry<String, Long> e : s.failuresByCause().entrySet()) {
            b.append(String.format(Locale.ROOT, "failed %d: %s%n", e.getValue(), e.getKey()));
        }
        long accounted = s.successes() + s.rejected() + s.timedOut() + s.failed();
        String timedOut = s.timeout() == null ? "" : " + timed out " + s.timedOut();
        b.append(String.format(Locale.ROOT, "accounting: sent %d = responses %d + rejected %d%s + failed %d%s%n",
            s.sent(), s.successes(), s.rejected(), timedOut, s.failed(), accounted == s.sent() ? "" : " MISMATCH "
                + accounted));
        return b.toString();
    }

    private static void row(StringBuilder b, String name, long count, double perSecond, Latency l) {
        String empty = "-";
        b.append(String.format(Locale.ROOT, "%-22s %9d %9.1f %9s %9s %9s %9s%n", name, count, perSecond,
            l.isEmpty() ? empty : Latency.format(l.p50Micros()), l.isEmpty() ? empty : Latency.format(l.p90Micros()),
            l.isEmpty() ? empty : Latency.format(l.p99Micros()), l.isEmpty() ? empty : Latency.format(l.maxMicros())));
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
