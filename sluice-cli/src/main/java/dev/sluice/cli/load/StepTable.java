package dev.sluice.cli.load;

import java.util.Locale;

/**
 * A run's steps as text for a terminal: one progress line per step as it completes, and a table of every step at the
 * end — offered load, success rate and latency, failure latency, and the failures by kind.
 *
 * <p>Stateless and thread-safe.
 */
public final class StepTable {

    private static final String ROW = "%9s %7s %9s %9s %9s %9s %9s %9s %9s %9s %7s%n";

    private StepTable() {
    }

    /**
     * One line for a completed step, e.g. {@code offered 450/s: sent 2250 | success 2166 = 96.3 % p50 95.1 ms p95
     * 99.2 ms | failures p99 180 µs: rejected 84, timed out 0, failed 0}.
     */
    public static String progress(StepStats s) {
        StringBuilder b = new StringBuilder(160);
        b.append(String.format(Locale.ROOT, "offered %d/s: sent %d | success %d = %s", s.offeredRate(), s.sent(),
            s.successes(), percent(s)));
        if (!s.successLatency().isEmpty()) {
            b.append(" p50 ").append(Latency.format(s.successLatency().p50Micros())).append(" p95 ")
                .append(Latency.format(s.successLatency().p95Micros()));
        }
        b.append(" | failures");
        if (!s.failureLatency().isEmpty()) {
            b.append(" p99 ").append(Latency.format(s.failureLatency().p99Micros()));
        }
        b.append(String.format(Locale.ROOT, ": rejected %d, timed out %d, failed %d", s.rejected(), s.timedOut(),
            s.failed()));
        return b.toString();
    }

    /** The table of a run's steps, with a line that checks the accounting; several lines, ending with a break. */
    public static String table(LoadSummary run) {
        StringBuilder b = new StringBuilder(2048);
        b.append(String.format(Locale.ROOT, ROW, "offered/s", "sent", "success", "succ p50", "succ p95", "fail p50",
            "fail p95", "fail p99", "rejected", "timed out", "failed"));
        for (StepStats s : run.steps()) {
            b.append(String.format(Locale.ROOT, ROW, s.offeredRate(), s.sent(), percent(s),
                p(s.successLatency(), s.successLatency().p50Micros()),
                p(s.successLatency(), s.successLatency().p95Micros()),
                p(s.failureLatency(), s.failureLatency().p50Micros()),
                p(s.failureLatency(), s.failureLatency().p95Micros()),
                p(s.failureLatency(), s.failureLatency().p99Micros()), s.rejected(), s.timedOut(), s.failed()));
        }
        long accounted = run.successes() + run.rejected() + run.timedOut() + run.failed();
        b.append(String.format(Locale.ROOT, "accounting: sent %d = success %d + rejected %d + timed out %d + failed"
            + " %d%s%n", run.sent(), run.successes(), run.rejected(), run.timedOut(), run.failed(),
            accounted == run.sent() ? "" : " MISMATCH " + accounted));
        run.rejectionsByMessage().forEach((k, v) -> b.append(String.format(Locale.ROOT, "rejected %d: %s%n", v, k)));
        run.failuresByCause().forEach((k, v) -> b.append(String.format(Locale.ROOT, "failed %d: %s%n", v, k)));
        return b.toString();
    }

    /** {@code 96.3 %}. */
    static String percent(StepStats s) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * s.successRatio());
    }

    private static String p(Latency l, long micros) {
        return l.isEmpty() ? "-" : Latency.format(micros);
    }
}
