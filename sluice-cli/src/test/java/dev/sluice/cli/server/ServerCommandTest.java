package dev.sluice.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testkit.Stderr;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code sluice server} reports: its per-second counts with and without leases, and its settings. */
class ServerCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void withoutLeasesTheLogStillCountsAcceptedAndRejectedRequests() {
        ServerCommand server = new ServerCommand();
        // A bucket of 3 that refills once a minute: 3 accepted, then rate_limited.
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
            "--rate-limit", "1/m", "--burst", "3");
        CloseableServer running = server.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", running.port())).block(TIMEOUT);
        int refused = 0;
        try {
            for (int i = 0; i < 5; i++) {
                try {
                    client.requestResponse(Payload.create("r" + i)).block(TIMEOUT).release();
                } catch (RejectedException e) {
                    refused++;
                }
            }
        } finally {
            client.dispose();
            running.dispose();
        }
        assertThat(refused).isEqualTo(2);
        assertThat(server.stats().accepted()).isEqualTo(3);
        assertThat(server.stats().rejected()).isEqualTo(2);
        assertThat(server.stats().sinceLastCall()).startsWith("accepted=3 rejected=2 request-response p99=");
    }

    /**
     * With leases the engine reports requests to the stats too; a request the rate limit refuses reaches it as an
     * ordinary error. It must still be counted as rejected, once, and its refusal time kept out of the p99: the
     * second interval's line has no p99 at all, since nothing in it was answered.
     */
    @Test
    void withLeasesARateLimitedRequestIsCountedAsRejectedAndHasNoLatency() throws InterruptedException {
        for (boolean clientAsksForLeases : new boolean[] {true, false}) {
            ServerCommand server = new ServerCommand();
            // Leases far above the load, and a bucket of 1 that refills once a minute: 1 accepted, then rate_limited.
            new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
                "--lease-allowed", "100", "--lease-ttl", "60s", "--rate-limit", "1/m", "--burst", "1");
            CloseableServer running = server.start();
            RSocketConnector connector = clientAsksForLeases ? RSocketConnector.create().lease()
                : RSocketConnector.create();
            Connection client = connector.connect(TcpClientTransport.create("127.0.0.1", running.port()))
                .block(TIMEOUT);
            String first;
            String second;
            try {
                for (int i = 0; i < 500 && clientAsksForLeases && client.availability() < 1.0; i++) {
                    Thread.sleep(10);
                }
                client.requestResponse(Payload.create("ok")).block(TIMEOUT).release();
                first = server.stats().sinceLastCall();
                for (int i = 0; i < 3; i++) {
                    assertThatThrownBy(() -> client.requestResponse(Payload.create("over")).block(TIMEOUT))
                        .isInstanceOf(RejectedException.class).hasMessage("rate_limited");
                }
                second = server.stats().sinceLastCall();
            } finally {
                client.dispose();
                running.dispose();
            }
            String as = clientAsksForLeases ? "a leasing client" : "a client without leases";
            // A client that did not ask for leases is sent none.
            String lease = clientAsksForLeases ? " lease=100 requests / 60000 ms" : " lease=none";
            assertThat(first).as(as).startsWith("accepted=1 rejected=0 request-response p99=").endsWith(lease);
            assertThat(second).as(as).isEqualTo("accepted=0 rejected=3" + lease);
            assertThat(server.stats().accepted() + server.stats().rejected()).as(as).isEqualTo(4);
        }
    }

    /** A client that honours leases, connected to {@code server}. */
    private static Connection leasingClient(CloseableServer server) {
        return RSocketConnector.create().lease().connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }

    /**
     * {@code --lease adaptive}: each leasing client gets leases of its own, sized by a limit of its own (AIMD starts
     * at 4 and, with one request at a time and answers far under the target, stays there), and the log line shows
     * the sum of the connections' limits until a connection ends.
     */
    @Test
    void adaptiveLeasesGoToEachClientAndTheLogShowsTheirLimits() throws InterruptedException {
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
            "--lease", "adaptive", "--lease-limit", "aimd", "--target-latency", "50ms");
        CloseableServer running = server.start();
        Connection first = leasingClient(running);
        Connection second = leasingClient(running);
        try {
            for (int i = 0; i < 500 && (first.availability() == 0 || second.availability() == 0); i++) {
                Thread.sleep(10);
            }
            assertThat(first.availability()).isPositive();
            assertThat(second.availability()).isPositive();
            first.requestResponse(Payload.create("a")).block(TIMEOUT).release();
            second.requestResponse(Payload.create("b")).block(TIMEOUT).release();
            assertThat(server.stats().sinceLastCall()).startsWith("accepted=2 rejected=0 request-response p99=")
                .containsPattern(" lease=[1-9]\\d* requests / [1-9]\\d* ms limit=8 \\(aimd, sum over 2"
                    + " connections\\)$");
            second.dispose();
            String line = server.stats().sinceLastCall();
            for (int i = 0; i < 500 && !line.endsWith(" limit=4 (aimd)"); i++) {
                Thread.sleep(10);
                line = server.stats().sinceLastCall();
            }
            assertThat(line).endsWith(" limit=4 (aimd)");
        } finally {
            first.dispose();
            second.dispose();
            running.dispose();
        }
    }

    /**
     * With a target latency and no {@code --lease-limit}, leases are a rate sized by CUBIC, one limit for the server
     * shared by its clients: a client's first request waits for its first permit (10 a second for the server at
     * first) and is answered, and the log line says how many connections share the limit.
     */
    @Test
    void aTargetLatencyAloneGivesRateLeasesSizedByOneCubicLimitSharedByTheClients() {
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
            "--lease", "adaptive", "--target-latency", "50ms");
        CloseableServer running = server.start();
        Connection first = leasingClient(running);
        Connection second = leasingClient(running);
        try {
            for (int i = 0; i < 3; i++) {
                first.requestResponse(Payload.create("a")).block(TIMEOUT).release();
                second.requestResponse(Payload.create("b")).block(TIMEOUT).release();
            }
            assertThat(server.stats().sinceLastCall()).startsWith("accepted=6 rejected=0 request-response p99=")
                .containsPattern(" lease=\\d+ requests / 31 ms limit=\\d+ \\(cubic, shared by 2 connections\\)$");
            second.dispose();
            String line = server.stats().sinceLastCall();
            for (int i = 0; i < 500 && !line.endsWith("(cubic)"); i++) {
                Thread.sleep(10);
                line = server.stats().sinceLastCall();
            }
            assertThat(line).containsPattern(" limit=\\d+ \\(cubic\\)$");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            first.dispose();
            second.dispose();
            running.dispose();
        }
    }

    /**
     * Without a target latency, CUBIC's rate leases estimate one: the startup line says so, requests are answered,
     * and once a second of answers has given the first estimate the log line shows it.
     */
    @Test
    void adaptiveLeasesWithoutATargetEstimateOne() throws InterruptedException {
        assertThat(new AdaptiveServerLeases(LeaseLimit.CUBIC, null, new ServerStats()).describe())
            .isEqualTo("adaptive (cubic, target estimated)");
        assertThat(new AdaptiveServerLeases(LeaseLimit.GRADIENT2, null, new ServerStats()).describe())
            .isEqualTo("adaptive (gradient2, no target latency)");
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
            "--lease", "adaptive");
        CloseableServer running = server.start();
        Connection client = leasingClient(running);
        try {
            for (int i = 0; i < 3; i++) {
                client.requestResponse(Payload.create("a")).block(TIMEOUT).release();
            }
            assertThat(server.stats().sinceLastCall()).startsWith("accepted=3 rejected=0 request-response p99=")
                .containsPattern(" limit=\\d+ \\(cubic\\)$");
            String line = "";
            // 20 answers over at least a second make the first estimate: four times their p99 (a cold JVM's, here)
            for (int i = 0; i < 200 && !line.contains("estimated"); i++) {
                client.requestResponse(Payload.create("a")).block(TIMEOUT).release();
                Thread.sleep(20);
                line = server.stats().sinceLastCall();
            }
            assertThat(line).containsPattern(" limit=\\d+ \\(cubic, target \\d+\\.\\d ms estimated\\)$");
        } finally {
            client.dispose();
            running.dispose();
        }
    }

    @Test
    void onShutdownItSaysHowLongItDrains() {
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--drain-timeout", "300ms");
        CloseableServer running = server.start();
        try {
            assertThat(Stderr.during(() -> server.drain(running)))
                .contains("[INFO] server - shutting down: draining connections for up to 300 ms");
            running.onClose().block(TIMEOUT);
        } finally {
            running.dispose();
        }
    }

    @Test
    void aRateWithoutAUnitIsPerSecondAndTheStartupLineSaysSo() {
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--rate-limit", "425");
        assertThat(server.rateLimit.describe()).isEqualTo("425/s (burst 10, max wait 0 ms, key global, in this"
            + " process)");
        ServerCommand perMinute = new ServerCommand();
        new CommandLine(perMinute).parseArgs("--rate-limit", "6000/m", "--burst", "5");
        assertThat(perMinute.rateLimit.describe()).startsWith("100/s (burst 5,");
        assertThat(new ServerCommand().rateLimit.describe()).isEqualTo("off");
    }
}
