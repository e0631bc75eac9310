package dev.sluice.transport.netty.conformance;

import static dev.sluice.transport.netty.conformance.ServerUnderTest.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.testkit.ScriptedPeer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protocol.md "Handling the Unexpected", rule by rule, against a Sluice server driven by a scripted client: what
 * must be ignored is answered by nothing (the ping that follows is the next frame), what is malformed gets
 * ERROR[CONNECTION_ERROR] quoting the broken rule, the connection's resources are freed, and the server goes on
 * serving its other connections.
 */
class UnexpectedFramesConformanceTest {

    private ServerUnderTest server;

    @BeforeEach
    void start() {
        server = ServerUnderTest.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void requestOnStreamIdInUseIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestStream(1, 1, "s"));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("s0");
            // Every request type on the busy stream 1: none may start a second stream there.
            peer.send(TestFrames.requestResponse(1, "dup"));
            peer.send(TestFrames.requestStream(1, 5, "dup"));
            peer.send(TestFrames.requestChannel(1, 5, false, "dup"));
            peer.send(TestFrames.requestFnf(1, "dup"));
            ping(peer, 3);
            // The original stream is untouched and continues on demand.
            peer.send(TestFrames.requestN(1, 1));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("s1");
        }
        assertThat(server.handler.fireAndForgets).hasValue(0);
        assertThat(server.handler.streamRequests).containsExactly(1L, 1L);
    }

    @Test
    void cancelOnUnknownStreamIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.cancel(99));
            peer.send(TestFrames.raw(0, FrameType.CANCEL, 0));
            ping(peer, 1);
        }
    }

    @Test
    void errorOnUnknownStreamIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.error(99, ErrorCodes.APPLICATION_ERROR, "for nobody"));
            peer.send(TestFrames.error(101, ErrorCodes.CANCELED, "for nobody"));
            ping(peer, 1);
        }
    }

    @Test
    void payloadOnUnknownStreamIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.next(99, "for nobody"));
            peer.send(TestFrames.payload(97, true, false, true, "md", "first fragment for nobody"));
            peer.send(TestFrames.complete(95));
            // Stream 0 is never a stream: PAYLOAD there is for an unknown stream as well.
            peer.send(TestFrames.raw(0, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE, (byte) 'x'));
            ping(peer, 1);
        }
    }

    @Test
    void requestNOnUnknownStreamIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestN(99, 5));
            peer.send(TestFrames.raw(0, FrameType.REQUEST_N, 0, (byte) 0, (byte) 0, (byte) 0, (byte) 5));
            ping(peer, 1);
        }
    }

    @Test
    void metadataPushOnNonZeroStreamIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.raw(5, FrameType.METADATA_PUSH, FrameFlags.METADATA, (byte) 'm', (byte) 'd'));
            ping(peer, 1);
            // The same frame on stream 0 reaches the handler: the one above was dropped, not lost in transit.
            peer.send(TestFrames.metadataPush("md"));
            ping(peer, 3);
        }
        assertThat(server.handler.metadataPushes).hasValue(1);
    }

    @Test
    void leaseToServerWithoutLeaseIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.lease(1000, 10));
            ping(peer, 1);
        }
    }

    @Test
    void flagBitsNotDefinedForTheTypeAreIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // REQUEST_RESPONSE defines M and F only; C and N set here must not change its meaning.
            peer.send(TestFrames.raw(1, FrameType.REQUEST_RESPONSE, FrameFlags.COMPLETE | FrameFlags.NEXT | 0x1F,
                (byte) 'h', (byte) 'i'));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("hi");
            ping(peer, 3);
        }
    }

    @Test
    void keepAliveIsAnsweredWithItsData() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.keepAlivesVisible(true);
            peer.send(TestFrames.keepAlive(true, "echo me"));
            var answer = peer.expectFrame(FrameType.KEEPALIVE, 0);
            assertThat(answer.hasFlag(FrameFlags.RESPOND)).isFalse();
            assertThat(new String(answer.bytes(), 14, answer.length() - 14)).isEqualTo("echo me");
            // A KEEPALIVE without R is not answered.
            peer.send(TestFrames.keepAlive(false, "no answer"));
            ping(peer, 1);
        }
    }

    @Test
    void unknownFrameTypeWithIgnoreFlagIsIgnored() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.raw(0, 0x20, FrameFlags.IGNORE, (byte) 1, (byte) 2));
            peer.send(TestFrames.raw(7, 0x3E, FrameFlags.IGNORE));
            peer.send(TestFrames.ext(0, true, 42));
            peer.send(TestFrames.ext(9, true, 43));
            ping(peer, 1);
        }
    }

    @Test
    void unknownFrameTypeWithoutIgnoreFlagIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.raw(0, 0x20, 0, (byte) 1, (byte) 2));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: unknown frame type 0x20");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertConnectionFreed(0);
    }

    @Test
    void extensionFrameWithoutIgnoreFlagIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.ext(0, false, 42));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("EXT frame with extended type 42 not understood and its I flag is clear");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertConnectionFreed(0);
    }

    @Test
    void resumeOnEstablishedConnectionIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.send(TestFrames.resume());
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("RESUME received on an established connection");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void badMetadataLengthIsConnectionErrorAndTheStreamsAreFreed() throws Exception {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // An open stream whose handler must be cancelled when the connection fails.
            peer.send(TestFrames.requestStream(1, 1, "s"));
            peer.expectFrame(FrameType.PAYLOAD, 1);
            try (ScriptedPeer bystander = server.connectAndSetup()) {
                ping(bystander, 1);
                // REQUEST_RESPONSE with M: metadata length 300, but only 2 bytes follow.
                peer.send(TestFrames.raw(3, FrameType.REQUEST_RESPONSE, FrameFlags.METADATA,
                    (byte) 0, (byte) 1, (byte) 44, (byte) 'a', (byte) 'b'));
                assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                    .isEqualTo("malformed frame: metadata length 300 exceeds frame: 2 bytes left");
                assertThat(peer.expectClosed()).isEmpty();
                server.handler.streamCancelled.get(ServerUnderTest.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                assertConnectionFreed(0);
                // The server goes on serving its other connection, and new ones.
                ping(bystander, 3);
            }
        }
        try (ScriptedPeer next = server.connectAndSetup()) {
            ping(next, 1);
        }
    }

    @Test
    void truncatedFrameIsConnectionErrorQuotingTheLengths() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            // REQUEST_N needs 4 bytes of n after the header; 2 are there.
            peer.send(TestFrames.raw(1, FrameType.REQUEST_N, 0, (byte) 0, (byte) 1));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: frame too short for REQUEST_N: length=8, need 10");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertConnectionFreed(0);
    }

    @Test
    void frameShorterThanItsHeaderIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            peer.sendRaw(new byte[] {0, 0, 3, 0, 0, 0});
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: frame too short for header: length=3, need 6");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertConnectionFreed(0);
    }

    @Test
    void zeroDemandIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.raw(1, FrameType.REQUEST_STREAM, 0, (byte) 0, (byte) 0, (byte) 0, (byte) 0));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: REQUEST_STREAM with initialRequestN=0");
            assertThat(peer.expectClosed()).isEmpty();
        }
        assertThat(server.handler.streamRequests).isEmpty();
    }

    @Test
    void payloadWithNeitherNextNorCompleteIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestChannel(1, 1, false, "c"));
            peer.send(TestFrames.raw(1, FrameType.PAYLOAD, 0, (byte) 'x'));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("c");
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("malformed frame: PAYLOAD with neither NEXT nor COMPLETE");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void requestWithServerParityStreamIdIsConnectionError() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestResponse(2, "even"));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("REQUEST_RESPONSE on stream 2: requests from the client must use odd stream ids");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    /** Waits for the server side of the {@code index}-th accepted connection to close. */
    private void assertConnectionFreed(int index) {
        Connection c = server.accepted.get(index);
        c.onClose().block(ServerUnderTest.TIMEOUT);
        assertThat(c.isDisposed()).isTrue();
    }
}
