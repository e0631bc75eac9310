package dev.sluice.transport.netty.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import dev.sluice.testkit.ScriptedWebsocketPeer;
import dev.sluice.transport.netty.TcpServerTransport;
import dev.sluice.transport.netty.WebsocketServerTransport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * A Sluice server on loopback serving a {@link ScriptHandler}, for scripted peers to talk to: it remembers the
 * connections its acceptor saw, so that a test can check that a connection it broke was really closed.
 */
final class ServerUnderTest implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    final ScriptHandler handler = new ScriptHandler();
    /** The connections the acceptor accepted (SETUP passed), in order. */
    final List<Connection> accepted = new CopyOnWriteArrayList<>();
    private final CloseableServer server;

    private ServerUnderTest(Consumer<RSocketServer> serverOptions, ServerTransport transport) {
        RSocketServer rs = RSocketServer.create((setup, sendingSocket) -> {
            accepted.add(sendingSocket);
            return Mono.just(handler);
        });
        serverOptions.accept(rs);
        this.server = rs.bind(transport).block(TIMEOUT);
    }

    static ServerUnderTest start() {
        return start(s -> { }, t -> { });
    }

    static ServerUnderTest start(Consumer<RSocketServer> serverOptions) {
        return start(serverOptions, t -> { });
    }

    static ServerUnderTest start(Consumer<RSocketServer> serverOptions, Consumer<TcpServerTransport> transport) {
        TcpServerTransport tcp = TcpServerTransport.create("127.0.0.1", 0);
        transport.accept(tcp);
        return new ServerUnderTest(serverOptions, tcp);
    }

    /** The server on WebSocket, at the default path {@code /rsocket}. */
    static ServerUnderTest websocket(Consumer<RSocketServer> serverOptions,
                                     Consumer<WebsocketServerTransport> transport) {
        WebsocketServerTransport ws = WebsocketServerTransport.create("127.0.0.1", 0);
        transport.accept(ws);
        return new ServerUnderTest(serverOptions, ws);
    }

    int port() {
        return server.port();
    }

    int connectionCount() {
        return server.connectionCount();
    }

    /** A raw peer connected to the server; nothing sent yet. */
    ScriptedPeer connect() {
        return ScriptedPeer.connect("127.0.0.1", port());
    }

    /** A raw peer that has sent a valid SETUP. */
    ScriptedPeer connectAndSetup() {
        return connect().send(TestFrames.setup());
    }

    /** A raw WebSocket peer, upgraded on {@code /rsocket}, that has sent a valid SETUP. */
    ScriptedWebsocketPeer connectWebsocketAndSetup() {
        return ScriptedWebsocketPeer.connect("127.0.0.1", port(), WebsocketServerTransport.DEFAULT_PATH)
            .send(TestFrames.setup());
    }

    /** {@link #ping(ScriptedPeer, int)} over WebSocket. */
    static void ping(ScriptedWebsocketPeer peer, int streamId) {
        String data = "ping-" + streamId;
        peer.send(TestFrames.requestResponse(streamId, data));
        ReceivedFrame reply = peer.expectFrame(FrameType.PAYLOAD, streamId);
        assertThat(reply.hasFlag(FrameFlags.NEXT | FrameFlags.COMPLETE)).as("flags of %s", reply).isTrue();
        assertThat(reply.dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo(data);
    }

    /**
     * Sends a request-response on {@code streamId} and expects its echo as the very next frame: proof that the
     * connection is alive and that nothing sent before it produced a frame.
     */
    static void ping(ScriptedPeer peer, int streamId) {
        String data = "ping-" + streamId;
        peer.send(TestFrames.requestResponse(streamId, data));
        ReceivedFrame reply = peer.expectFrame(FrameType.PAYLOAD, streamId);
        assertThat(reply.hasFlag(FrameFlags.NEXT | FrameFlags.COMPLETE)).as("flags of %s", reply).isTrue();
        assertThat(reply.dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo(data);
    }

    @Override
    public void close() {
        server.dispose();
        server.onClose().block(TIMEOUT);
    }
}
