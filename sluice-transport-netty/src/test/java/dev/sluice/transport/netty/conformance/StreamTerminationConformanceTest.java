package dev.sluice.transport.netty.conformance;

import static dev.sluice.transport.netty.conformance.ServerUnderTest.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a responder's streams end (Protocol.md "Stream Sequences and Lifetimes"): an ERROR or CANCEL terminates a
 * stream, after which the responder sends nothing more on it — in particular no CANCEL after an ERROR, which
 * would address a stream both sides already consider gone.
 */
class StreamTerminationConformanceTest {

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
    void requesterErrorEndsChannelWithNothingSentBack() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestChannel(1, 1, false, "c"));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("c");
            peer.send(TestFrames.error(1, ErrorCodes.APPLICATION_ERROR, "requester gave up"));
            // ERROR ends both directions: the next frame is the ping's answer, not a CANCEL for stream 1.
            ping(peer, 3);
        }
    }

    @Test
    void channelOverSendToEchoHandlerGetsInvalidOnly() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // The echo handler wants as many inbound payloads as its outbound demand: 1, the first one.
            peer.send(TestFrames.requestChannel(1, 1, false, "c"));
            peer.expectFrame(FrameType.PAYLOAD, 1);
            peer.send(TestFrames.next(1, "unasked"));
            assertThat(peer.expectError(1, ErrorCodes.INVALID).errorMessage())
                .isEqualTo("requester sent more payloads than requested on stream 1");
            ping(peer, 3);
        }
    }

    @Test
    void requesterCancelStopsTheStreamAndItsHandler() throws Exception {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestStream(1, 2, "s"));
            peer.expectFrame(FrameType.PAYLOAD, 1);
            peer.expectFrame(FrameType.PAYLOAD, 1);
            peer.send(TestFrames.cancel(1));
            server.handler.streamCancelled.get(ServerUnderTest.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            // Demand sent after the cancel is for a stream that no longer exists.
            peer.send(TestFrames.requestN(1, 5));
            ping(peer, 3);
        }
    }

    @Test
    void requesterCompleteOnChannelLetsTheResponseFinish() {
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestChannel(1, 5, false, "a"));
            peer.expectFrame(FrameType.PAYLOAD, 1);
            ReceivedFrame grant = peer.expectFrame(FrameType.REQUEST_N, 1);
            assertThat(grant.intAt(6)).isEqualTo(4);
            peer.send(TestFrames.next(1, "b"));
            peer.send(TestFrames.complete(1));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("b");
            // The echo completes when its input does.
            ReceivedFrame end = peer.expectFrame(FrameType.PAYLOAD, 1);
            assertThat(end.hasFlag(FrameFlags.COMPLETE)).isTrue();
            ping(peer, 3);
        }
    }
}
