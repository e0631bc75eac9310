package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testkit.Stderr;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcStatus;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

class EchoServerCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void servesEveryInteraction() {
        EchoServerCommand cmd = new EchoServerCommand();
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0", "--stream-count", "3", "--mtu", "64");
        CloseableServer server = cmd.start();
        Connection c = RSocketConnector.create().fragment(64)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            Payload rr = c.requestResponse(Payload.create("x".repeat(1000), "meta")).block(TIMEOUT);
            assertThat(rr.dataUtf8()).isEqualTo("x".repeat(1000));
            assertThat(rr.metadataUtf8()).isEqualTo("meta");
            rr.release();

            List<String> stream = c.requestStream(Payload.create("s")).map(EchoServerCommandTest::text)
                .collectList().block(TIMEOUT);
            assertThat(stream).containsExactly("s", "s", "s");

            List<String> channel = c.requestChannel(Flux.just("a", "b", "c").map(Payload::create))
                .map(EchoServerCommandTest::text).collectList().block(TIMEOUT);
            assertThat(channel).containsExactly("a", "b", "c");

            c.fireAndForget(Payload.create("f")).block(TIMEOUT);
            c.metadataPush(Payload.create("", "m")).block(TIMEOUT);
            // A request-response after them on the same connection proves they were read (frames are ordered).
            c.requestResponse(Payload.create("sync")).block(TIMEOUT).release();
            assertThat(cmd.service.fireAndForgets.get()).isEqualTo(1);
            assertThat(cmd.service.metadataPushes.get()).isEqualTo(1);
        } finally {
            c.dispose();
            server.dispose();
        }
    }

    @Test
    void servesLeasesAndCountsAcceptedAndRejected() {
        EchoServerCommand cmd = new EchoServerCommand();
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0", "--lease-allowed", "3", "--lease-ttl", "60s");
        CloseableServer server = cmd.start();
        // Not waiting for permits: the request over the lease reaches the server, which refuses and counts it.
        Connection c = RSocketConnector.create().lease().leaseWait(0, Duration.ZERO)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 100 && c.availability() < 1.0; i++) {
                Thread.sleep(10);
            }
            for (int i = 0; i < 3; i++) {
                c.requestResponse(Payload.create("ok")).block(TIMEOUT).release();
            }
            assertThatThrownBy(() -> c.requestResponse(Payload.create("over")).block(TIMEOUT))
                .isInstanceOf(RejectedException.class).hasMessage("lease_exhausted");
            assertThat(cmd.leaseLog.sinceLastCall())
                .isEqualTo("leases: accepted=3 rejected=1 last lease sent=3 requests / 60000 ms");
            assertThat(cmd.leaseLog.sinceLastCall()).as("nothing new to log").isNull();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            c.dispose();
            server.dispose();
        }
    }

    @Test
    void wrongArgumentsExitWithTwoAndAClearMessage() {
        assertThat(run("echo-server", "--address", "nonsense")).startsWith("2|")
            .contains("or unix:/path/to.sock, got 'nonsense'");
        assertThat(run("echo-server", "--address", "127.0.0.1:70000")).startsWith("2|")
            .contains("port must be between 0 and 65535, got 70000");
        assertThat(run("echo-server", "--mtu", "10", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--mtu must be 0 (no fragmentation) or between 64 and 16777218, got 10\n");
        assertThat(run("echo-server", "--backlog", "0", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--backlog must be > 0, got 0\n");
        assertThat(run("echo-server", "--no-such-option")).startsWith("2|").contains("Unknown option");
        assertThat(run()).startsWith("2|").contains("missing command");
        assertThat(run("echo-server", "--lease-allowed", "-1", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--lease-allowed must be >= 0, got -1");
        assertThat(run("echo-server", "--lease-allowed", "5", "--lease-ttl", "soon")).startsWith("2|")
            .contains("expected a duration such as 250ms, 1s, 2m or PT1S, got 'soon'");
    }

    /** What the shutdown hook does: one line saying how long it drains, then a close bounded by --drain-timeout. */
    @Test
    void onShutdownItSaysSoAndDrainsForTheDrainTimeout() {
        EchoServerCommand defaults = new EchoServerCommand();
        new CommandLine(defaults).parseArgs();
        assertThat(defaults.shutdown.timeout()).as("the default, as server's and proxy's")
            .isEqualTo(Duration.ofSeconds(5));

        EchoServerCommand cmd = new EchoServerCommand();
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0", "--drain-timeout", "200ms");
        CloseableServer server = cmd.start();
        Connection c = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            // A stream that runs until cancelled, asked for one element and no more: only the drain timeout ends
            // it. Were the drain still a fixed 5 s, drain() would fail on its wait of 200 ms + 1 s.
            Sinks.One<String> first = Sinks.one();
            c.requestStream(Payload.create("s")).subscribe(new BaseSubscriber<Payload>() {
                @Override
                protected void hookOnSubscribe(Subscription s) {
                    request(1);
                }

                @Override
                protected void hookOnNext(Payload p) {
                    first.tryEmitValue(text(p));
                }
            });
            assertThat(first.asMono().block(TIMEOUT)).isEqualTo("s");
            String err = Stderr.during(() -> cmd.drain(server));
            assertThat(err).contains("[INFO] echo-server - shutting down: draining connections for up to 200 ms");
            server.onClose().block(TIMEOUT);
            assertThat(server.isDisposed()).isTrue();
        } finally {
            c.dispose();
            server.dispose();
        }
        assertThat(run("echo-server", "--drain-timeout", "PT-1S", "--address", "127.0.0.1:0")).startsWith("2|")
            .contains("--drain-timeout must be >= 0, got -1000ms");
    }

    @Test
    void helpExitsWithZero() {
        assertThat(run("--help")).startsWith("0|").contains("echo-server");
        assertThat(run("echo-server", "--help")).startsWith("0|").contains("--stream-count");
    }

    @Test
    void portInUseIsAClearMessageNotAStackTrace() {
        EchoServerCommand first = new EchoServerCommand();
        new CommandLine(first).parseArgs("--address", "127.0.0.1:0");
        CloseableServer server = first.start();
        try {
            String out = run("echo-server", "--address", "127.0.0.1:" + server.port());
            assertThat(out).startsWith("1|").contains("address already in use").doesNotContain("\tat ");
        } finally {
            server.dispose();
        }
    }

    /** The Echo RPC service and the raw echo on one server: each request goes where its metadata says. */
    @Test
    void servesTheEchoRpcServiceNextToTheRawEcho() {
        EchoServerCommand cmd = new EchoServerCommand();
        new CommandLine(cmd).parseArgs("--address", "127.0.0.1:0");
        CloseableServer server = cmd.start();
        Connection c = RSocketConnector.create()
            .metadataMimeType("message/x.rsocket.composite-metadata.v0")
            .dataMimeType("application/vnd.google.protobuf")
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        try {
            EchoClient echo = EchoRpc.client(c);
            EchoReply said = echo.say(EchoRequest.newBuilder().setText("hi").build()).block(TIMEOUT);
            assertThat(said.getText()).isEqualTo("hi");
            assertThat(said.getIndex()).isZero();
            assertThat(echo.repeat(EchoRequest.newBuilder().setText("r").setCount(3).build())
                .map(EchoReply::getIndex).collectList().block(TIMEOUT)).containsExactly(0, 1, 2);
            EchoReply collected = echo.collect(Flux.just("a", "b", "c")
                .map(t -> EchoRequest.newBuilder().setText(t).build())).block(TIMEOUT);
            assertThat(collected.getText()).isEqualTo("a,b,c");
            assertThat(collected.getIndex()).isEqualTo(3);
            assertThat(echo.chat(Flux.just("x", "y").map(t -> EchoRequest.newBuilder().setText(t).build()))
                .map(r -> r.getText() + r.getIndex()).collectList().block(TIMEOUT)).containsExactly("x0", "y1");
            assertThatThrownBy(() -> echo.say(EchoRequest.newBuilder().setText("fail:NOT_FOUND:nope").build())
                .block(TIMEOUT))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.status()).isEqualTo(RpcStatus.NOT_FOUND);
                    assertThat(e.description()).isEqualTo("nope");
                });
            // The same connection, no route: the raw echo answers.
            assertThat(text(c.requestResponse(Payload.create("raw")).block(TIMEOUT))).isEqualTo("raw");
            assertThat(cmd.service.requestResponses.get()).isEqualTo(1);
        } finally {
            c.dispose();
            server.dispose();
        }
    }

    private static String text(Payload p) {
        String s = p.dataUtf8();
        p.release();
        return s;
    }

    private static String run(String... args) {
        return CliRun.run(args);
    }
}
