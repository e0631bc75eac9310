package dev.sluice.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short demo run end to end: servers, proxy, client, table, report. */
class DemoCommandTest {

    @Test
    void aShortRunPrintsTheTableAndWritesTheReport(@TempDir Path dir) throws IOException {
        Path report = dir.resolve("demo.html");
        String out = CliRun.run("demo", "--duration", "2s", "--warmup", "0s", "--rps", "200",
            "--leases", "30", "--report", report.toString());
        assertThat(out).startsWith("0|")
            .contains("== scenario: each server leases 30 requests/s ==")
            .contains("| leased requests | p99 latency | accepted/s | rejected/s |")
            .contains("| 30 | ")
            .contains("report: " + report.toAbsolutePath());
        String html = Files.readString(report);
        assertThat(html).contains("<svg").contains("lease 30/s").doesNotContain("http://").doesNotContain("https://");
    }

    @Test
    void anAdaptiveScenarioHasItsRowAndChartsEachServersLeasesAndLatency(@TempDir Path dir) throws IOException {
        Path report = dir.resolve("demo.html");
        String out = CliRun.run("demo", "--duration", "2s", "--warmup", "0s", "--rps", "200",
            "--leases", "adaptive,adaptive-slow-server", "--report", report.toString());
        assertThat(out).startsWith("0|")
            .contains("== scenario: adaptive: each server leases what keeps its responses within 20ms ==")
            .contains("| adaptive | ").contains("| adaptive, one server 2x slower | ");
        String html = Files.readString(report);
        assertThat(html).contains("adaptive: leases per server")
            .contains("adaptive, one server 2x slower: p99 per server");
    }

    @Test
    void anUnknownScenarioIsRefusedWithWhatIsAccepted() {
        assertThat(CliRun.run("demo", "--leases", "100,fast")).startsWith("2|")
            .contains("--leases takes whole numbers and adaptive, adaptive-slow-server, adaptive-slowdown,"
                + " adaptive-no-target, got 'fast'");
        assertThat(CliRun.run("demo", "--leases", "-3")).startsWith("2|").contains("--leases must be >= 0, got -3");
        assertThat(CliRun.run("demo", "--target-latency", "0ms")).startsWith("2|")
            .contains("--target-latency must be > 0, got 0s");
    }
}
