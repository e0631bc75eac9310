package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.ConnectionErrorException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.KeepAliveFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.SetupFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import dev.sluice.testkit.ScriptedServer;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.SocketAcceptor;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.server.CloseableChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Keep-alive in both roles: a peer that goes silent is closed once the max lifetime passes, with
 * ERROR[CONNECTION_ERROR] saying so; a peer that answers is not; and round-trip times measured with our
 * timestamp in KEEPALIVE data come back from rsocket-java, which echoes the data as the spec requires.
 *
 * <p>Only the outcome is asserted (closed, and why), never how long it took.
 */
class KeepAliveTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void silentClientIsClosedByTheServerAfterMaxLifetime() {
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        CloseableServer server = RSocketServer.create((setup, sendingSocket) -> {
            accepted.complete(sendingSocket);
            return Mono.just(new SluiceResponder());
        }).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        try (ScriptedPeer peer = ScriptedPeer.connect("127.0.0.1", server.port())) {
            // The client asks for keep-alive every 100 ms and tolerates 500 ms of silence, then says nothing.
            peer.send(setup(100, 500));
            ReceivedFrame error = peer.expectError(0, ErrorCodes.CONNECTION_ERROR);
            assertThat(error.errorMessage()).startsWith("no KEEPALIVE received for ")
                .endsWith(" ms: keep-alive max lifetime 500 ms exceeded");
            assertThat(peer.expectClosed()).isEmpty();
            // The server probed before giving up: KEEPALIVE(R) frames came first.
            assertThat(peer.keepAlivesSkipped()).isPositive();
            assertThat(peer.received().get(0).hasFlag(FrameFlags.RESPOND)).isTrue();
            Connection c = accepted.join();
            c.onClose().block(TIMEOUT);
            assertThat(c.isDisposed()).isTrue();
        } finally {
            server.dispose();
        }
    }

    @Test
    void clientThatAnswersKeepAlivesStaysOpenPastMaxLifetime() {
        CloseableServer server = RSocketServer.create((setup, s) -> Mono.just(new SluiceResponder()))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        try (ScriptedPeer peer = ScriptedPeer.connect("127.0.0.1", server.port())) {
            peer.keepAlivesVisible(true);
            // A 2 s lifetime leaves a wide margin for a stalled JVM on a busy CI machine.
            peer.send(setup(100, 2000));
            // 25 probes answered span more than the 2000 ms lifetime; each answer resets the clock.
            for (int i = 0; i < 25; i++) {
                ReceivedFrame probe = peer.expectFrame(FrameType.KEEPALIVE, 0);
                assertThat(probe.hasFlag(FrameFlags.RESPOND)).isTrue();
                ByteBuf answer = Unpooled.buffer();
                KeepAliveFrame.encode(answer, false, 0, Unpooled.wrappedBuffer(probe.bytes(), 14,
                    probe.length() - 14));
                peer.send(answer);
            }
            peer.send(requestResponse(1, "still here"));
            ReceivedFrame reply = peer.receive();
            while (reply.type() == FrameType.KEEPALIVE) {
                reply = peer.receive();
            }
            assertThat(reply.type()).isEqualTo(FrameType.PAYLOAD);
            assertThat(reply.dataUtf8(6)).isEqualTo("still here");
        } finally {
            server.dispose();
        }
    }

    @Test
    void silentServerIsClosedByTheClientAfterMaxLifetime() {
        try (ScriptedServer scripted = ScriptedServer.start()) {
            Connection client = RSocketConnector.create()
                .keepAlive(Duration.ofMillis(100), Duration.ofMillis(500))
                .connect(TcpClientTransport.create("127.0.0.1", scripted.port())).block(TIMEOUT);
            try (ScriptedPeer server = scripted.accept()) {
                server.expectFrame(FrameType.SETUP, 0);
                ReceivedFrame error = server.expectError(0, ErrorCodes.CONNECTION_ERROR);
                assertThat(error.errorMessage()).endsWith(" ms: keep-alive max lifetime 500 ms exceeded");
                assertThat(server.expectClosed()).isEmpty();
                assertThat(server.keepAlivesSkipped()).isPositive();
            }
            client.onClose().block(TIMEOUT);
            StepVerifier.create(client.requestResponse(Payload.create("too late")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectionErrorException.class)
                    .hasMessageEndingWith("keep-alive max lifetime 500 ms exceeded"))
                .verify(TIMEOUT);
        }
    }

    @Test
    void rttSamplesArriveFromRSocketJavaServer() {
        CloseableChannel channel = io.rsocket.core.RSocketServer.create(SocketAcceptor.with(new JavaResponder()))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        Connection client = RSocketConnector.create()
            .keepAlive(Duration.ofMillis(100), Duration.ofSeconds(30))
            .connect(TcpClientTransport.create("127.0.0.1", channel.address().getPort())).block(TIMEOUT);
        try {
            List<Long> samples = client.rtt().take(3).collectList().block(TIMEOUT);
            assertThat(samples).hasSize(3).allSatisfy(rtt -> assertThat(rtt).isPositive());
        } finally {
            client.dispose();
            channel.dispose();
        }
    }

    @Test
    void rttSamplesArriveFromRSocketJavaClient() throws Exception {
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        CloseableServer server = RSocketServer.create((setup, sendingSocket) -> {
            accepted.complete(sendingSocket);
            return Mono.just(new SluiceResponder());
        }).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        // The server keeps alive at the interval the client's SETUP asks for, and measures with it.
        io.rsocket.RSocket client = io.rsocket.core.RSocketConnector.create()
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .keepAlive(Duration.ofMillis(100), Duration.ofSeconds(30))
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
        try {
            Connection toClient = accepted.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<Long> samples = toClient.rtt().take(3).collectList().block(TIMEOUT);
            assertThat(samples).hasSize(3).allSatisfy(rtt -> assertThat(rtt).isPositive());
        } finally {
            client.dispose();
            server.dispose();
        }
    }

    private static ByteBuf setup(int keepAliveMillis, int maxLifetimeMillis) {
        ByteBuf out = Unpooled.buffer();
        SetupFrame.encode(out, false, keepAliveMillis, maxLifetimeMillis, null, "application/binary",
            "application/binary", null, null);
        return out;
    }

    private static ByteBuf requestResponse(int streamId, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestResponseFrame.encode(out, streamId, false, null,
            Unpooled.wrappedBuffer(data.getBytes(StandardCharsets.UTF_8)));
        return out;
    }
}
