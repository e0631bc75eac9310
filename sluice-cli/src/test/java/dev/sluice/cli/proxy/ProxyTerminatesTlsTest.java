package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.CliRun;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.Credentials;
import dev.sluice.testkit.Stderr;
import dev.sluice.testkit.TestPki;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TlsClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The proxy in front of plaintext servers, terminating TLS and bearer-token authentication: a client with TLS and
 * the right token gets its answers from the servers behind; one with a wrong token is refused at SETUP with a reason
 * that gives nothing away, and neither token shows in any output or log line.
 */
class ProxyTerminatesTlsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String TOKEN = "proxy-token-5d1e";
    private static final String WRONG_TOKEN = "guess-0000";

    @TempDir
    Path dir;

    private final List<CloseableServer> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(CloseableServer::dispose);
    }

    @Test
    void aTlsClientWithTheTokenReachesThePlaintextServersAndAWrongTokenIsRefused() throws Exception {
        TestPki pki = new TestPki(dir);
        TestPki.Issued ca = pki.ca("ca", "Proxy CA");
        TestPki.Issued cert = pki.issue(ca, "proxy", "localhost", List.of("127.0.0.1"));
        Path tokens = Files.writeString(dir.resolve("tokens"), "# clients\n" + TOKEN + "\nanother-client-token\n");
        Path good = Files.writeString(dir.resolve("good"), TOKEN + "\n");
        Path wrong = Files.writeString(dir.resolve("wrong"), WRONG_TOKEN + "\n");

        String log = Stderr.during(() -> {
            List<String> servers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                CloseableServer s = ServerCommand.of("127.0.0.1", 0, 1000, Duration.ofSeconds(1)).start();
                started.add(s);
                servers.add("127.0.0.1:" + s.port());
            }
            ProxyCommand proxy = new ProxyCommand();
            new CommandLine(proxy).parseArgs("--address", "tls://127.0.0.1:0", "--tls-cert",
                cert.certFile().toString(), "--tls-key", cert.keyFile().toString(), "--auth-token-file",
                tokens.toString(), "--servers", String.join(",", servers));
            CloseableServer proxyServer = proxy.start();
            started.add(proxyServer);
            awaitConnected(proxy, 2);
            String target = "tls://127.0.0.1:" + proxyServer.port();

            String ok = CliRun.run("load", "--target", target, "--tls-ca", ca.certFile().toString(),
                "--auth-token-file", good.toString(), "--rps", "40", "--duration", "1s");
            assertThat(ok).as(ok).startsWith("0|").contains("sluice load: " + target);
            // The saturable service answers with its own address: the answers came from the servers behind.
            assertThat(ok).containsAnyOf(servers.get(0), servers.get(1));

            String refused = CliRun.run("load", "--target", target, "--tls-ca", ca.certFile().toString(),
                "--auth-token-file", wrong.toString(), "--rps", "40", "--duration", "1s");
            assertThat(refused).as(refused).startsWith("1|").endsWith("sluice load: " + target
                + " refused the connection: REJECTED_SETUP authentication failed\n");
            assertThat(refused.strip().lines().filter(l -> l.startsWith("sluice load: tls")).count())
                .as("the failure is one line").isEqualTo(1);

            // What the client library sees: REJECTED_SETUP, and a reason that quotes nothing it sent.
            Connection c = RSocketConnector.create().authentication(Credentials.bearer(WRONG_TOKEN))
                .connect(TcpClientTransport.create("127.0.0.1", proxyServer.port())
                    .secure(TlsClient.trusting(ca.certFile()))).block(TIMEOUT);
            Throwable failure = null;
            try {
                c.requestResponse(Payload.create("x")).block(TIMEOUT);
            } catch (RuntimeException e) {
                failure = e;
            }
            c.onClose().block(TIMEOUT);
            assertThat(c.closeCause()).isInstanceOf(RejectedSetupException.class)
                .hasMessage("authentication failed");
            assertThat(failure).as("the request failed").isNotNull();
        });
        assertThat(log).doesNotContain(TOKEN).doesNotContain(WRONG_TOKEN).doesNotContain("another-client-token");
    }

    private static void awaitConnected(ProxyCommand proxy, int servers) {
        // Bounded: 1000 x 10 ms; the servers are on loopback.
        for (int i = 0; i < 1000 && proxy.balancer().connectedTargets().size() < servers; i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        assertThat(proxy.balancer().connectedTargets()).hasSize(servers);
    }
}
