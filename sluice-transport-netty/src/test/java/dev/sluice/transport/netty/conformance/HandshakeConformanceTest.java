package dev.sluice.transport.netty.conformance;

import static dev.sluice.transport.netty.conformance.ServerUnderTest.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameType;
import dev.sluice.testkit.ScriptedPeer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Connection establishment against a scripted client (Protocol.md "Connection Establishment" and "Handling the
 * Unexpected"): what a Sluice server answers to a first frame that is not an acceptable SETUP, with the error codes
 * and messages rsocket-java uses, and what it ignores once the connection is up.
 */
class HandshakeConformanceTest {

    private ServerUnderTest server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void firstFrameOtherThanSetupGetsInvalidSetupAndClose() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.requestResponse(1, "too early"));
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .isEqualTo("SETUP or RESUME frame must be received before any others, got REQUEST_RESPONSE");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertThat(server.accepted).isEmpty();
    }

    @Test
    void resumeWithoutResumeSupportGetsRejectedResume() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.resume());
            assertThat(peer.expectError(0, ErrorCodes.REJECTED_RESUME).errorMessage())
                .isEqualTo("resume not supported");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void setupWithLeaseToServerWithoutLeaseGetsInvalidSetup() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.setup(1, 0, true, null));
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .isEqualTo("lease is not supported");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertThat(server.accepted).isEmpty();
    }

    @Test
    void setupWithResumeTokenGetsUnsupportedSetup() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.setup(1, 0, false, TestFrames.utf8("resume-token")));
            assertThat(peer.expectError(0, ErrorCodes.UNSUPPORTED_SETUP).errorMessage())
                .isEqualTo("resume not supported");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void unsupportedMajorVersionGetsInvalidSetup() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.setup(2, 0, false, null));
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .startsWith("Unsupported version 2.0");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void newerMinorVersionOfOneIsAccepted() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.setup(1, 7, false, null));
            ping(peer, 1);
        }
    }

    @Test
    void truncatedSetupGetsInvalidSetupQuotingTheLengths() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            peer.send(truncatedSetup(16));
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .isEqualTo("malformed frame: frame too short for SETUP: length=16, need 20");
            assertThat(peer.expectClosed()).isEmpty();
        }
        try (ScriptedPeer peer = server.connect()) {
            // Cut inside the metadata MIME type: its length byte (18) promises more than the frame holds.
            peer.send(truncatedSetup(20));
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .isEqualTo("malformed frame: metadata MIME type length 18 exceeds frame: 1 bytes left");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertThat(server.accepted).isEmpty();
    }

    private static ByteBuf truncatedSetup(int length) {
        ByteBuf setup = TestFrames.setup();
        try {
            return Unpooled.copiedBuffer(setup.slice(0, length));
        } finally {
            setup.release();
        }
    }

    @Test
    void acceptorRejectionGetsRejectedSetupWithItsMessage() {
        SocketAcceptor refuse = (setup, sendingSocket) -> Mono.error(new RejectedSetupException("not today"));
        server = ServerUnderTest.start(s -> s.acceptor(refuse));
        try (ScriptedPeer peer = server.connectAndSetup()) {
            assertThat(peer.expectError(0, ErrorCodes.REJECTED_SETUP).errorMessage()).isEqualTo("not today");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void aRefusedClientThatKeepsSendingStillReadsWhy() throws InterruptedException {
        SocketAcceptor refuse = (setup, sendingSocket) -> Mono.error(new RejectedSetupException("not today"));
        server = ServerUnderTest.start(s -> s.acceptor(refuse));
        try (ScriptedPeer peer = server.connect()) {
            peer.send(TestFrames.setup()).awaitUnreadBytes(ServerUnderTest.TIMEOUT);
            // Requests behind the SETUP, as a load generator sends them: arriving after a plain close, they would
            // draw a TCP reset, which makes this side's kernel drop the unread ERROR. The server lingers instead.
            for (int i = 0; i < 64; i++) {
                peer.send(TestFrames.requestResponse(2 * i + 1, "x".repeat(1000)));
            }
            Thread.sleep(100);
            assertThat(peer.expectError(0, ErrorCodes.REJECTED_SETUP).errorMessage()).isEqualTo("not today");
        }
    }

    @Test
    void requestsSentRightAfterSetupAreServedOnceAccepted() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connect()) {
            // No acknowledgement exists: a client may send requests immediately behind SETUP.
            peer.send(TestFrames.setup()).send(TestFrames.requestResponse(1, "at once"));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(6)).isEqualTo("at once");
        }
    }

    @Test
    void secondSetupIsIgnored() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.setup());
            ping(peer, 3);
        }
        assertThat(server.accepted).hasSize(1);
    }

    @Test
    void setupErrorCodesReceivedByTheServerAreIgnored() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.error(0, ErrorCodes.INVALID_SETUP, "a client cannot send this"));
            peer.send(TestFrames.error(0, ErrorCodes.REJECTED_SETUP, "nor this"));
            peer.send(TestFrames.error(0, ErrorCodes.REJECTED_RESUME, "nor this"));
            ping(peer, 3);
        }
    }

    @Test
    void silentConnectionIsClosedAfterMaxTimeToFirstFrame() {
        server = ServerUnderTest.start(s -> s.maxTimeToFirstFrame(Duration.ofMillis(200)));
        try (ScriptedPeer peer = server.connect()) {
            assertThat(peer.expectError(0, ErrorCodes.INVALID_SETUP).errorMessage())
                .isEqualTo("no SETUP frame received within maxTimeToFirstFrame=200 ms");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertThat(server.accepted).isEmpty();
    }

    @Test
    void connectionsBeyondMaxConnectionsGetRejectedSetup() {
        server = ServerUnderTest.start(s -> s.maxConnections(1));
        try (ScriptedPeer first = server.connectAndSetup()) {
            ping(first, 1);
            try (ScriptedPeer second = server.connect()) {
                assertThat(second.expectError(0, ErrorCodes.REJECTED_SETUP).errorMessage())
                    .isEqualTo("too many connections: maxConnections=1 reached");
                assertThat(second.expectClosed()).isEmpty();
            }
            // The first connection is unaffected, and the refused one was never counted.
            ping(first, 3);
            assertThat(server.connectionCount()).isEqualTo(1);
        }
        // Once the first one is gone, its slot is free again.
        server.accepted.get(0).onClose().block(ServerUnderTest.TIMEOUT);
        assertThat(server.connectionCount()).isZero();
        try (ScriptedPeer third = server.connectAndSetup()) {
            ping(third, 1);
        }
    }
}
