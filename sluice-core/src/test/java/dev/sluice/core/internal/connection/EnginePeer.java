package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.RSocket;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The test's end of one Sluice connection over a {@link FakeTransport}: the test plays the peer by sending
 * scripted frames ({@link PeerFrames}) and reads what the engine wrote as one line per frame. Everything runs on
 * the test thread; the transport's clock is frozen, so no timer (keep-alive, drain) fires during a test.
 */
final class EnginePeer {

    private static final ConnectionConfig CONFIG = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
        Duration.ofSeconds(300));

    private final FakeTransport transport;
    private final RSocketConnection connection;

    private EnginePeer(FakeTransport transport, RSocketConnection connection) {
        this.transport = transport;
        this.connection = connection;
    }

    /** Sluice as the client (its requester starts interactions); the test answers as the server. */
    static EnginePeer client() {
        return client(CONFIG);
    }

    /** As {@link #client()}, fragmenting frames larger than {@code mtu} (bytes, the length prefix included). */
    static EnginePeer client(int mtu) {
        return client(new ConnectionConfig(mtu, CONFIG.maxInboundPayloadSize(), CONFIG.maxActiveStreams(),
            CONFIG.keepAliveInterval(), CONFIG.keepAliveMaxLifetime()));
    }

    private static EnginePeer client(ConnectionConfig config) {
        FakeTransport transport = new FakeTransport();
        transport.freezeTime();
        ByteBuf setup = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(setup, false, 60_000, 300_000, null, PeerFrames.MIME, PeerFrames.MIME, null, null);
        EnginePeer peer = new EnginePeer(transport, RSocketConnection.client(transport, config, setup,
            requester -> new RSocket() { }));
        List<ByteBuf> first = transport.takeWritten();
        try {
            assertThat(first).hasSize(1);
            assertThat(FrameHeader.frameType(first.get(0), 0)).as("the client's first frame")
                .isEqualTo(FrameType.SETUP);
        } finally {
            first.forEach(ByteBuf::release);
        }
        return peer;
    }

    /** Sluice as the server, after the test's SETUP, serving requests with {@code handler}. */
    static EnginePeer server(RSocket handler) {
        FakeTransport transport = new FakeTransport();
        transport.freezeTime();
        EnginePeer peer = new EnginePeer(transport, RSocketConnection.server(transport, CONFIG,
            new ServerSetup(SocketAcceptor.with(handler), null), Duration.ofSeconds(10)));
        peer.send(PeerFrames.setup());
        assertThat(peer.written()).as("an accepted SETUP without lease is not answered").isEmpty();
        return peer;
    }

    /** Sluice's requester API on this connection. */
    Connection requester() {
        return connection.requester();
    }

    /** Delivers one frame to the engine as one read burst (and runs the tasks it queued); takes it over. */
    void send(ByteBuf frame) {
        transport.receive(frame);
    }

    /** Runs the engine's queued tasks, e.g. an outbound stream asking its publisher for the next batch. */
    void runTasks() {
        transport.runPendingTasks();
    }

    /** What the engine wrote since the last call, one line per frame ({@link PeerFrames#describe}). */
    List<String> written() {
        List<String> out = new ArrayList<>();
        for (ByteBuf frame : transport.takeWritten()) {
            try {
                out.add(PeerFrames.describe(frame));
            } finally {
                frame.release();
            }
        }
        return out;
    }

    /** Makes {@code next} the engine's next stream id, as if that many requests had gone before. */
    void nextStreamId(int next) {
        connection.streams().nextStreamIdForTest(next);
    }

    /** Whether {@code streamId} is still in the connection's registry of active streams. */
    boolean isActive(int streamId) {
        return connection.streams().get(streamId) != null;
    }

    /**
     * Asserts that the stream left the registry, three ways: the registry no longer holds it; frames the peer
     * still sends on its id (REQUEST_N, PAYLOAD, CANCEL, ERROR) are ignored without an answer; and a graceful
     * close finds nothing in flight, so it closes the connection at once instead of waiting for a drain. The
     * connection is closed afterwards.
     */
    void assertStreamGone(int streamId) {
        assertThat(isActive(streamId)).as("stream %d in the registry", streamId).isFalse();
        send(PeerFrames.requestN(streamId, 8));
        send(PeerFrames.next(streamId, "late"));
        send(PeerFrames.cancel(streamId));
        send(PeerFrames.error(streamId, ErrorCodes.APPLICATION_ERROR, "late"));
        assertThat(written()).as("answers to frames on finished stream %d", streamId).isEmpty();
        connection.requester().closeGracefully(Duration.ofDays(1));
        assertThat(written()).containsExactly("ERROR 0 CONNECTION_CLOSE: graceful close");
        assertThat(connection.isDisposed()).as("closed at once: no stream in flight").isTrue();
    }

    /** Closes the connection and releases what the engine wrote and the test did not take. */
    void close() {
        connection.dispose();
        transport.runPendingTasks();
        transport.releaseWritten();
    }
}
