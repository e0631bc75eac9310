package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.CliRun;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code proxy --servers} with dns: entries, and {@code --dns-refresh}: what parses, and the usage errors (exit 2). */
class ProxyServersArgumentTest {

    @Test
    void dnsEntriesAndFixedOnesMix() {
        ProxyCommand proxy = new ProxyCommand();
        new CommandLine(proxy).parseArgs("--servers", "dns:pool.default.svc.cluster.local:7001,127.0.0.1:7002,"
            + "dns:pool-b:65535,[::1]:7003", "--dns-refresh", "250ms");
        assertThat(proxy.servers).containsExactly(
            new ServerAddress("pool.default.svc.cluster.local", 7001, true),
            new ServerAddress("127.0.0.1", 7002, false),
            new ServerAddress("pool-b", 65535, true),
            new ServerAddress("::1", 7003, false));
        assertThat(proxy.servers).extracting(ServerAddress::toString).containsExactly(
            "dns:pool.default.svc.cluster.local:7001", "127.0.0.1:7002", "dns:pool-b:65535", "[::1]:7003");
        assertThat(proxy.dnsRefresh).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void theRefreshDefaultsToFiveSeconds() {
        ProxyCommand proxy = new ProxyCommand();
        new CommandLine(proxy).parseArgs("--servers", "dns:pool:7001");
        assertThat(proxy.dnsRefresh).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void badEntriesAreUsageErrorsThatQuoteThem() {
        String[][] rows = {
            // --servers value, the message
            {"dns:", "expected dns:NAME:PORT, got 'dns:'"},
            {"dns:pool", "expected dns:NAME:PORT, got 'dns:pool'"},
            {"dns:pool:", "expected dns:NAME:PORT, got 'dns:pool:'"},
            {"dns::7001", "expected dns:NAME:PORT, got 'dns::7001'"},
            {"dns:a:b:7001", "expected dns:NAME:PORT, got 'dns:a:b:7001'"},
            {"dns:pool:0", "port must be between 1 and 65535 in dns:NAME:PORT, got 'dns:pool:0'"},
            {"dns:pool:65536", "port must be between 1 and 65535 in dns:NAME:PORT, got 'dns:pool:65536'"},
            {"dns:pool:x", "port must be a number in dns:NAME:PORT, got 'dns:pool:x'"},
            {"127.0.0.1:7001,dns:pool", "expected dns:NAME:PORT, got 'dns:pool'"},
        };
        for (String[] row : rows) {
            String out = CliRun.run("proxy", "--address", "127.0.0.1:0", "--servers", row[0]);
            assertThat(out).as("--servers %s", row[0]).startsWith("2|")
                .contains("Invalid value for option '--servers'").contains(row[1]).contains("Usage: sluice proxy");
        }
    }

    @Test
    void theRefreshMustBePositive() {
        assertThat(CliRun.run("proxy", "--address", "127.0.0.1:0", "--servers", "dns:pool:7001", "--dns-refresh",
            "0s")).startsWith("2|").contains("--dns-refresh must be > 0, got 0ms");
        assertThat(CliRun.run("proxy", "--address", "127.0.0.1:0", "--servers", "dns:pool:7001", "--dns-refresh",
            "PT-1S")).startsWith("2|").contains("--dns-refresh must be > 0, got -1000ms");
        assertThat(CliRun.run("proxy", "--address", "127.0.0.1:0", "--servers", "dns:pool:7001", "--dns-refresh",
            "often")).startsWith("2|").contains("expected a duration such as 250ms, 1s, 2m or PT1S, got 'often'");
    }
}
