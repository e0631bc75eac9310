package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.load.LoadGenerator;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.limits.redis.FailurePolicy;
import dev.sluice.limits.redis.RedisRateLimiter;
import dev.sluice.testkit.RedisServerProcess;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --redis} on the command line: a limit shared by two servers, wrong values, an unreachable Redis. */
class RedisLimitCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /**
     * Two servers share 40/s (burst 5) through one Redis while each gets 120 requests/s: together they admit at most
     * what one bucket admits, R·T + burst over the time T the load lasted — about half what two separate limits
     * would.
     */
    @Test
    void twoServersSharingOneRedisAdmitAtMostRTPlusBurstBetweenThem() throws Exception {
        double rate = 40;
        int burst = 5;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            List<CloseableServer> servers = new ArrayList<>();
            List<Connection> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    ServerCommand server = new ServerCommand();
                    // Closed: a decision Redis misses on a busy machine is a refusal, never an extra admission.
                    new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
                        "--rate-limit", "40/s", "--burst", Integer.toString(burst), "--redis", redis.uri(),
                        "--redis-timeout", "2s", "--redis-failure", "closed");
                    CloseableServer s = server.start();
                    servers.add(s);
                    clients.add(RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", s.port()))
                        .block(TIMEOUT));
                }
                long start = System.nanoTime();
                List<CompletableFuture<LoadSummary>> runs = new ArrayList<>();
                for (Connection client : clients) {
                    runs.add(CompletableFuture.supplyAsync(() -> LoadGenerator.create(client)
                        .ramp(Ramp.constant(120, Duration.ofSeconds(2))).drainTimeout(Duration.ofSeconds(10)).run()));
                }
                LoadSummary a = runs.get(0).get();
                LoadSummary b = runs.get(1).get();
                double seconds = (System.nanoTime() - start) / 1e9;

                long admitted = a.successes() + b.successes();
                long bound = (long) Math.floor(rate * seconds) + burst;
                System.out.printf("two servers sharing %.0f/s burst %d over %.2f s: admitted %d + %d = %d, rejected"
                    + " %d + %d; bound R·T + burst = %d%n", rate, burst, seconds, a.successes(), b.successes(),
                    admitted, a.rejected(), b.rejected(), bound);
                assertThat(a.failed() + b.failed()).as("no request failed").isZero();
                assertThat(a.successes()).as("server A admitted some").isPositive();
                assertThat(b.successes()).as("server B admitted some").isPositive();
                assertThat(admitted).as("at most R·T + burst between them").isLessThanOrEqualTo(bound);
                assertThat(admitted).as("two separate limits would each admit about this much")
                    .isGreaterThanOrEqualTo((long) (rate * 2 * 0.75));
            } finally {
                clients.forEach(Connection::dispose);
                servers.forEach(CloseableServer::dispose);
            }
        }
    }

    @Test
    void aWrongRedisValueIsAUsageErrorThatQuotesIt() {
        assertThat(CliRun.run("server", "--address", "127.0.0.1:0", "--rate-limit", "10/s", "--redis",
            "localhost:6379")).startsWith("2|").contains("Invalid value for option '--redis'")
            .contains("expected redis://host:port[/db] (or rediss://, redis-sentinel://, redis-socket://), got"
                + " 'localhost:6379'");
        assertThat(CliRun.run("proxy", "--address", "127.0.0.1:0", "--servers", "127.0.0.1:1", "--rate-limit",
            "10/s", "--redis", "redis://localhost:port")).startsWith("2|")
            .contains("got 'redis://localhost:port': no host, or a port that is not a number");
        assertThat(CliRun.run("server", "--address", "127.0.0.1:0", "--rate-limit", "10/s", "--redis",
            "redis://localhost:6379/zero")).startsWith("2|")
            .contains("--redis database must be a number, as in redis://host:port/0, got"
                + " 'redis://localhost:6379/zero'");
        assertThat(CliRun.run("server", "--address", "127.0.0.1:0", "--redis", "redis://localhost:6379"))
            .startsWith("2|").contains("--redis needs --rate-limit: there is no limit to share");
        assertThat(CliRun.run("server", "--address", "127.0.0.1:0", "--rate-limit", "10/s", "--redis",
            "redis://localhost:6379", "--redis-failure", "ajar")).startsWith("2|")
            .contains("Invalid value for option '--redis-failure': expected open or closed, got 'ajar'");
        assertThat(CliRun.run("server", "--address", "127.0.0.1:0", "--rate-limit", "10/s", "--redis",
            "redis://localhost:6379", "--redis-timeout", "0ms")).startsWith("2|")
            .contains("--redis-timeout must be > 0, got 0ms");
    }

    @Test
    void theDefaultsAreTheLimitersOwn() {
        RateLimitOptions options = new RateLimitOptions();
        new CommandLine(options).parseArgs();
        try (RedisRateLimiter defaults = RedisRateLimiter.builder(1, 1).redis("redis://127.0.0.1:1").build()) {
            assertThat(options.redisTimeout).isEqualTo(RedisRateLimiter.DEFAULT_TIMEOUT).isEqualTo(defaults.timeout());
            assertThat(options.redisFailure).isEqualTo(defaults.failurePolicy()).isEqualTo(FailurePolicy.FAIL_OPEN);
        }
    }

    @Test
    void anUnreachableRedisAtStartupStopsAFailClosedServerInOneLine() throws Exception {
        String down = "redis://127.0.0.1:" + RedisServerProcess.freePort();
        String out = CliRun.run("server", "--address", "127.0.0.1:0", "--rate-limit", "10/s", "--redis", down,
            "--redis-failure", "closed");
        assertThat(out).startsWith("1|").contains("sluice server: redis at 127.0.0.1:")
            .contains("does not answer (connection refused)")
            .contains("and --redis-failure closed would refuse every request: start Redis or fix --redis")
            .doesNotContain("\tat ");
        assertThat(out.strip().lines().count()).as("one line: %s", out).isEqualTo(1);
    }

    @Test
    void anUnreachableRedisAtStartupLetsAFailOpenServerStartAndAdmit() throws Exception {
        String down = "redis://127.0.0.1:" + RedisServerProcess.freePort();
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1", "--rate-limit",
            "1/m", "--burst", "1", "--redis", down);
        CloseableServer s = server.start();
        Connection client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", s.port()))
            .block(TIMEOUT);
        try {
            for (int i = 0; i < 3; i++) {
                client.requestResponse(Payload.create("r" + i)).block(TIMEOUT).release();
            }
        } finally {
            client.dispose();
            s.dispose();
        }
    }
}
