package dev.sluice.cli.demo;

import dev.sluice.cli.load.LoadSummary;
import java.util.List;
import java.util.Locale;

/** The demo's result table, next to the figures the design was published with. */
final class DemoTable {

    /** Published p99 (ms), accepted and rejected per second for leases of 9999, 100 and 30. */
    private static final long[][] PUBLISHED = {{9999, 4877, 974, 0}, {100, 19, 300, 700}, {30, 4, 90, 910}};

    private DemoTable() {
    }

    static String render(List<ScenarioResult> results) {
        StringBuilder b = new StringBuilder();
        b.append("| leased requests | p99 latency | accepted/s | rejected/s | failed | published p99 | published"
            + " accepted/s | published rejected/s |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        for (ScenarioResult r : results) {
            LoadSummary m = r.summary();
            long[] pub = r.scenario().adaptive() ? null : published(r.scenario().leaseAllowed());
            b.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %d | %s | %s | %s |%n",
                r.scenario().tableLabel(), millis(m.successLatency().p99Micros()), m.successesPerSecond(),
                m.rejectedPerSecond(), m.failed(),
                pub == null ? "-" : pub[1] + " ms", pub == null ? "-" : Long.toString(pub[2]),
                pub == null ? "-" : Long.toString(pub[3])));
        }
        return b.toString();
    }

    private static long[] published(int lease) {
        for (long[] row : PUBLISHED) {
            if (row[0] == lease) {
                return row;
            }
        }
        return null;
    }

    static String millis(long micros) {
        return micros >= 100_000 ? String.format(Locale.ROOT, "%d ms", Math.round(micros / 1000.0))
            : String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
    }
}
