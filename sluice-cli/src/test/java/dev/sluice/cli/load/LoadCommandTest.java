package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Main;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpServerTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

@Timeout(60)
class LoadCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void runsAgainstAServerAndPrintsEachSecondAndTheSummary() {
        CloseableServer server = addressServer(false);
        String address = "127.0.0.1:" + server.port();
        try {
            String out = run("load", "--target", address, "--rps", "200", "--duration", "2s", "--payload-size", "32");

            assertThat(out).startsWith("0|")
                .contains("sluice load: tcp://" + address + ", 200 requests/s for 2s, payload 32 bytes, leases off")
                .contains("[  1s] sent ").contains("[  2s] sent ")
                .contains("(" + address + " ")
                .contains("sent 400 requests in 2 s")
                .contains("accounting: sent 400 = responses 400 + rejected 0 + failed 0");
            assertThat(count(out, "\\[ *\\d+s\\] sent")).as("one line per second").isBetween(2, 4);
            assertThat(out).containsPattern("\\n {2}" + Pattern.quote(address) + " +400 +200\\.0");
        } finally {
            server.dispose();
        }
    }

    @Test
    void withLeaseTheServersRejectionsAreCounted() {
        CloseableServer server = addressServer(true);
        try {
            String out = run("load", "--target", "127.0.0.1:" + server.port(), "--rps", "200", "--duration", "1s",
                "--lease");

            assertThat(out).startsWith("0|").contains("leases on");
            Matcher m = Pattern.compile("accounting: sent 200 = responses (\\d+) \\+ rejected (\\d+) \\+ failed 0")
                .matcher(out);
            assertThat(m.find()).as(out).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as("at most the 50 leased").isBetween(1, 50);
            assertThat(Integer.parseInt(m.group(2))).isGreaterThanOrEqualTo(150);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aRampReportsEachStepAndAddsUp() {
        CloseableServer server = addressServer(false);
        String address = "127.0.0.1:" + server.port();
        try {
            String out = run("load", "--target", address, "--ramp", "100..200", "--step", "100", "--step-duration",
                "1s", "--timeout", "2s");

            assertThat(out).startsWith("0|")
                .contains("sluice load: tcp://" + address + ", 100 to 200 requests/s by 100, 1s per step, timeout 2s")
                .contains("offered 100/s: sent 100 | success 100 = 100.0 %")
                .contains("offered 200/s: sent 200 | success 200 = 100.0 %")
                .contains("accounting: sent 300 = success 300 + rejected 0 + timed out 0 + failed 0");
            assertThat(out).containsPattern("(?m)^ +100 +100 +100\\.0 %")
                .containsPattern("(?m)^ +200 +200 +100\\.0 %");
        } finally {
            server.dispose();
        }
    }

    @Test
    void connectionRefusedIsOneLineAndExitCodeOne() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        String out = run("load", "--target", "127.0.0.1:" + port, "--duration", "1s");
        assertThat(out).startsWith("1|sluice load: cannot connect to 127.0.0.1:" + port)
            .doesNotContain("\tat ");
        assertThat(out.strip().lines().count()).as(out).isEqualTo(1);
    }

    @Test
    void wrongArgumentsExitWithTwoAndQuoteTheValue() {
        assertThat(run("load")).startsWith("2|").contains("Missing required option: '--target=ADDRESS'");
        assertThat(run("load", "--target", "nonsense")).startsWith("2|")
            .contains("or unix:/path/to.sock, got 'nonsense'");
        assertThat(run("load", "--target", "127.0.0.1:1", "--rps", "0")).startsWith("2|")
            .contains("--rps must be between 1 and 10000000, got 0");
        assertThat(run("load", "--target", "127.0.0.1:1", "--rps", "lots")).startsWith("2|")
            .contains("Invalid value for option '--rps': 'lots' is not an int");
        assertThat(run("load", "--target", "127.0.0.1:1", "--duration", "0s")).startsWith("2|")
            .contains("--duration must be > 0, got 0s");
        assertThat(run("load", "--target", "127.0.0.1:1", "--duration", "soon")).startsWith("2|")
            .contains("expected a duration such as 250ms, 1s, 2m or PT1S, got 'soon'");
        assertThat(run("load", "--target", "127.0.0.1:1", "--payload-size", "-1")).startsWith("2|")
            .contains("--payload-size must be between 0 and 16777152, got -1");
        assertThat(run("load", "--target", "127.0.0.1:1", "--connect-timeout", "0ms")).startsWith("2|")
            .contains("--connect-timeout must be > 0 and < 2^31 ms, got 0s");
        assertThat(run("load", "--target", "127.0.0.1:1", "--bogus")).startsWith("2|").contains("Unknown option");
        assertThat(run("load", "--target", "127.0.0.1:1", "--timeout", "1s")).startsWith("2|")
            .contains("--timeout needs --ramp");
        assertThat(run("load", "--target", "127.0.0.1:1", "--ramp", "600")).startsWith("2|")
            .contains("--ramp must be FROM..TO in requests/s, e.g. 100..600, got '600'");
        assertThat(run("load", "--target", "127.0.0.1:1", "--ramp", "600..100")).startsWith("2|")
            .contains("--ramp 600..100 --step 50: expected 1 <= from <= to <= 10000000, got from=600 to=100");
        assertThat(run("load", "--target", "127.0.0.1:1", "--ramp", "100..600", "--step", "70")).startsWith("2|")
            .contains("--ramp 100..600 --step 70: to - from is not a multiple of step: from=100 to=600 step=70");
        assertThat(run("load", "--target", "127.0.0.1:1", "--ramp", "100..600", "--timeout", "0s"))
            .startsWith("2|").contains("--timeout must be > 0, got 0s");
    }

    @Test
    void helpListsTheOptionsAndExitsWithZero() {
        assertThat(run("load", "--help")).startsWith("0|").contains("--target").contains("--rps")
            .contains("--duration").contains("--payload-size").contains("--lease").contains("open loop");
        assertThat(run("--help")).startsWith("0|").contains("load");
    }

    /** A server answering every request with its own address; with {@code lease}, 50 requests per minute. */
    private static CloseableServer addressServer(boolean lease) {
        AtomicReference<String> self = new AtomicReference<>();
        RSocketServer server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                return Mono.just(Payload.create(self.get()));
            }
        }));
        if (lease) {
            server.lease(scheduler -> Leases.of(Leases.fixed(Duration.ofSeconds(60), 50, scheduler)));
        }
        CloseableServer running = server.bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        self.set("127.0.0.1:" + running.port());
        return running;
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * Runs the CLI's real entry point in this JVM and returns "exitCode|stdout+stderr" (the command line writes to
     * System.out and System.err, captured here).
     */
    private static String run(String... args) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        int code;
        try {
            code = Main.run(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return code + "|" + captured.toString(StandardCharsets.UTF_8);
    }
}
