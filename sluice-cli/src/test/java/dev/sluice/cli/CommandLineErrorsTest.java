package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every command answers --help, refuses wrong arguments with exit 2 and says why, and reports a busy port. */
class CommandLineErrorsTest {

    @Test
    void everyCommandHasHelp() {
        for (String command : new String[] {"demo", "sla", "server", "proxy", "load", "echo-server", "file-server",
            "upload", "download"}) {
            assertThat(run(command, "--help")).as(command).startsWith("0|").contains("Usage: sluice " + command);
        }
    }

    @Test
    void serverArgumentErrors() {
        assertThat(run("server", "--concurrency-delay", "10 => 2", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("the last concurrency-delay entry must have no bound ('=> MILLIS'), got '10 => 2'");
        assertThat(run("server", "--lease-allowed", "-5", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--lease-allowed must be >= 0, got -5");
        assertThat(run("server", "--lease-allowed", "5", "--lease-ttl", "0s", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--lease-ttl must be between 1ms and 2^31-1 ms, got 0ms");
        assertThat(run("server", "--address", "localhost")).startsWith("2|")
            .contains("or unix:/path/to.sock, got 'localhost'");
    }

    @Test
    void adaptiveLeaseArgumentErrors() {
        assertThat(run("server", "--lease", "dynamic", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--lease must be adaptive (a fixed lease is --lease-allowed N), got 'dynamic'");
        assertThat(run("server", "--lease", "adaptive", "--lease-allowed", "5", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--lease adaptive sizes each lease itself: drop --lease-allowed");
        assertThat(run("server", "--lease", "adaptive", "--lease-ttl", "2s", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--lease adaptive sets each lease's ttl from the latency it measures");
        assertThat(run("server", "--lease-limit", "vegas", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--lease-limit applies to adaptive leases only: add --lease adaptive");
        assertThat(run("server", "--lease-allowed", "5", "--target-latency", "20ms", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--target-latency applies to adaptive leases only: add --lease adaptive");
        assertThat(run("server", "--lease", "adaptive", "--target-latency", "0ms", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--target-latency must be > 0, got 0ms");
        assertThat(run("server", "--lease", "adaptive", "--lease-limit", "pid", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("expected aimd, vegas, gradient2 or cubic, got 'pid'");
    }

    @Test
    void rateLimitArgumentErrors() {
        assertThat(run("server", "--rate-limit", "fast", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--rate-limit must look like 425/s, got 'fast'");
        assertThat(run("server", "--rate-limit", "5/week", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--rate-limit unit must be /s, /ms, /m or /h, got '5/week'");
        assertThat(run("proxy", "--rate-limit", "10/s", "--rate-limit-key", "cookie", "--servers", "127.0.0.1:1",
            "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--rate-limit-key must be global, remote-address or metadata:NAME, got 'cookie'");
        assertThat(run("server", "--rate-limit", "10/s", "--burst", "0", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--burst must be >= 1, got 0");
    }

    @Test
    void proxyArgumentErrors() {
        assertThat(run("proxy")).startsWith("2|").contains("Missing required option: '--servers");
        assertThat(run("proxy", "--servers", "127.0.0.1:1,nope")).startsWith("2|")
            .contains("or unix:/path/to.sock, got 'nope'");
        assertThat(run("proxy", "--servers", "127.0.0.1:1", "--request-timeout", "0s", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--request-timeout must be > 0, got 0ms");
        assertThat(run("proxy", "--servers", "127.0.0.1:1", "--silent-after", "2ms", "--address", "127.0.0.1:0"))
            .startsWith("2|").contains("--silent-after must be at least 3ms, got 2ms");
    }

    @Test
    void demoArgumentErrors() {
        assertThat(run("demo", "--rps", "0")).startsWith("2|").contains("--rps must be between 1 and");
        assertThat(run("demo", "--duration", "0s")).startsWith("2|").contains("--duration must be > 0, got 0s");
        assertThat(run("demo", "--leases", "100,-1")).startsWith("2|").contains("--leases must be >= 0, got -1");
        assertThat(run("demo", "--duration", "later")).startsWith("2|")
            .contains("expected a duration such as 250ms, 1s, 2m or PT1S, got 'later'");
    }

    @Test
    void busyPortIsAClearMessageForServerAndProxy() {
        CloseableServer busy = RSocketServer.create(SocketAcceptor.with(new RSocket() { }))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(Duration.ofSeconds(10));
        try {
            String address = "127.0.0.1:" + busy.port();
            for (String[] args : new String[][] {{"server", "--address", address},
                {"proxy", "--address", address, "--servers", "127.0.0.1:1"}}) {
                String out = run(args);
                assertThat(out).as(args[0]).startsWith("1|")
                    .contains("cannot listen on " + address + ": address already in use").doesNotContain("\tat ");
            }
        } finally {
            busy.dispose();
        }
    }

    @Test
    void echoServerGrpcAddressErrors() {
        assertThat(run("echo-server", "--address", "127.0.0.1:0", "--grpc-address", "nowhere")).startsWith("2|")
            .contains("expected host:port, got 'nowhere'");
        CloseableServer busy = RSocketServer.create(SocketAcceptor.with(new RSocket() { }))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(Duration.ofSeconds(10));
        try {
            String address = "127.0.0.1:" + busy.port();
            assertThat(run("echo-server", "--address", "127.0.0.1:0", "--grpc-address", address)).startsWith("1|")
                .contains("cannot serve gRPC on " + address + ": address already in use").doesNotContain("\tat ");
        } finally {
            busy.dispose();
        }
    }

    private static String run(String... args) {
        return CliRun.run(args);
    }
}
