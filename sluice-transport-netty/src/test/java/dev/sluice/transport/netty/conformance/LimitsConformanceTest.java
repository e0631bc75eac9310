package dev.sluice.transport.netty.conformance;

import static dev.sluice.transport.netty.conformance.ServerUnderTest.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestNFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every inbound limit of a Sluice server, hit by a scripted client: frame length (transport), reassembled payload
 * size, active streams, demand on a channel, tiny fragments, and demand of 2^31-1 (unbounded) sent again and
 * again. (Connections per server and time to first frame are in {@link HandshakeConformanceTest}.) Each test
 * checks the error the spec prescribes, its message, and that what is left of the connection still works.
 */
class LimitsConformanceTest {

    private ServerUnderTest server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void frameOverTheTransportsMaxFrameLengthIsConnectionError() {
        server = ServerUnderTest.start(s -> { }, t -> t.maxFrameLength(1024));
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // Exactly at the bound: a 1024-byte REQUEST_RESPONSE is served.
            peer.send(TestFrames.requestResponse(1, "x".repeat(1024 - 6)));
            assertThat(peer.expectFrame(FrameType.PAYLOAD, 1).length()).isEqualTo(1024);
            // One over: the length prefix alone condemns it, before its bytes arrive.
            peer.sendWithLength(1025, TestFrames.requestResponse(3, "y"));
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("frame length 1025 exceeds maxFrameLength=1024");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void reassembledRequestOverMaxInboundPayloadSizeIsRejected() {
        server = ServerUnderTest.start(s -> s.maxInboundPayloadSize(1000));
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // Exactly at the bound (metadata counts): 300 + 200 + 500 bytes in three fragments are served.
            peer.send(TestFrames.requestResponse(1, true, "m".repeat(300), "a".repeat(200)));
            peer.send(TestFrames.payload(1, false, false, true, null, "b".repeat(500)));
            ReceivedFrame echo = peer.expectFrame(FrameType.PAYLOAD, 1);
            assertThat(echo.metadataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("m".repeat(300));
            assertThat(echo.dataUtf8(PayloadFrame.PAYLOAD_START)).isEqualTo("a".repeat(200) + "b".repeat(500));
            // One byte over: REJECTED, the request never reaches the handler.
            peer.send(TestFrames.requestResponse(3, true, null, "a".repeat(500)));
            peer.send(TestFrames.payload(3, true, false, true, null, "b".repeat(501)));
            assertThat(peer.expectError(3, ErrorCodes.REJECTED).errorMessage())
                .isEqualTo("reassembled payload exceeds maxInboundPayloadSize: 1001 > 1000 bytes");
            // The rest of that request is for a stream that no longer exists: ignored.
            peer.send(TestFrames.payload(3, false, false, true, null, "tail"));
            ping(peer, 5);
        }
    }

    @Test
    void reassembledChannelPayloadOverMaxInboundPayloadSizeFailsTheStreamWithInvalid() {
        server = ServerUnderTest.start(s -> s.maxInboundPayloadSize(1000));
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestChannel(1, 10, false, "c"));
            // The echo handler asks for 10 inbound payloads: the first came with REQUEST_CHANNEL, 9 are granted.
            List<ReceivedFrame> two = List.of(peer.receive(), peer.receive());
            assertThat(two).extracting(ReceivedFrame::type).containsExactlyInAnyOrder(FrameType.PAYLOAD,
                FrameType.REQUEST_N);
            ReceivedFrame requestN = two.stream().filter(f -> f.type() == FrameType.REQUEST_N).findFirst().get();
            assertThat(requestN.intAt(RequestNFrame.REQUEST_N_OFFSET)).isEqualTo(9);
            peer.send(TestFrames.payload(1, true, false, true, null, "a".repeat(600)));
            peer.send(TestFrames.payload(1, true, false, true, null, "b".repeat(600)));
            assertThat(peer.expectError(1, ErrorCodes.INVALID).errorMessage())
                .isEqualTo("reassembled payload exceeds maxInboundPayloadSize: 1200 > 1000 bytes");
            ping(peer, 3);
        }
    }

    @Test
    void requestsBeyondMaxActiveStreamsAreRejectedUntilOneEnds() {
        server = ServerUnderTest.start(s -> s.maxActiveStreams(2));
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestStream(1, 1, "a"));
            peer.expectFrame(FrameType.PAYLOAD, 1);
            peer.send(TestFrames.requestStream(3, 1, "b"));
            peer.expectFrame(FrameType.PAYLOAD, 3);
            peer.send(TestFrames.requestResponse(5, "third"));
            assertThat(peer.expectError(5, ErrorCodes.REJECTED).errorMessage())
                .isEqualTo("too many active streams: limit maxActiveStreams=2 reached");
            peer.send(TestFrames.requestStream(7, 1, "fourth"));
            assertThat(peer.expectError(7, ErrorCodes.REJECTED).errorMessage())
                .isEqualTo("too many active streams: limit maxActiveStreams=2 reached");
            // Ending one stream frees its slot.
            peer.send(TestFrames.cancel(1));
            ping(peer, 9);
        }
        assertThat(server.handler.streamRequests).containsExactly(1L, 1L);
    }

    @Test
    void channelRequesterSendingMoreThanGrantedGetsInvalidAndNothingIsBuffered() throws Exception {
        server = ServerUnderTest.start();
        server.handler.channelTakesOne = true;
        try (ScriptedPeer peer = server.connectAndSetup()) {
            // The handler asks for exactly one payload: the one REQUEST_CHANNEL carries. No credit is granted.
            peer.send(TestFrames.requestChannel(1, 1, false, "first"));
            peer.send(TestFrames.next(1, "unasked"));
            assertThat(peer.expectError(1, ErrorCodes.INVALID).errorMessage())
                .isEqualTo("requester sent more payloads than requested on stream 1");
            // The stream is gone: more payloads are for an unknown stream and dropped on arrival.
            for (int i = 0; i < 100; i++) {
                peer.send(TestFrames.next(1, "flood-" + i));
            }
            ping(peer, 3);
        }
        Throwable inboundError = server.handler.channelInboundError.get(ServerUnderTest.TIMEOUT.toMillis(),
            TimeUnit.MILLISECONDS);
        assertThat(inboundError).isInstanceOf(InvalidException.class);
        assertThat(server.handler.channelInbound).containsExactly("first");
    }

    @Test
    void tinyFragmentFloodIsConnectionError() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connectAndSetup()) {
            ping(peer, 1);
            // One full first fragment (66 bytes), then 100 fragments that carry nothing, in one write.
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            append(flood, TestFrames.requestResponse(3, true, null, "a".repeat(60)));
            for (int i = 0; i < 100; i++) {
                append(flood, TestFrames.payload(3, true, false, true, null, ""));
            }
            peer.sendRaw(flood.toByteArray());
            assertThat(peer.expectError(0, ErrorCodes.CONNECTION_ERROR).errorMessage())
                .isEqualTo("fragment of 6 bytes on stream 3: fragments other than the last must be at least 61"
                    + " bytes (the minimum MTU of 64 less the length prefix)");
            assertThat(peer.expectClosed()).isEmpty();
        }
    }

    @Test
    void requestNOfTwoToTheThirtyOneMinusOneIsUnboundedAndRepeatingItDoesNotOverflow() {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.send(TestFrames.requestStream(1, 1, ScriptHandler.GATED));
            assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("gated0");
            peer.send(TestFrames.requestN(1, Integer.MAX_VALUE));
            assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("gated1");
            assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("gated2");
            // The handler waits at its gate; more unbounded grants pile up on an already unbounded demand. Had
            // they been added up in an int, the credits would now be negative and the stream stuck.
            for (int i = 0; i < 3; i++) {
                peer.send(TestFrames.requestN(1, Integer.MAX_VALUE));
            }
            ping(peer, 3);
            server.handler.gate.complete(null);
            for (int i = 3; i < 1003; i++) {
                assertThat(dataOf(peer.expectFrame(FrameType.PAYLOAD, 1))).isEqualTo("gated" + i);
            }
            ReceivedFrame end = peer.expectFrame(FrameType.PAYLOAD, 1);
            assertThat(end.hasFlag(FrameFlags.COMPLETE)).isTrue();
            assertThat(end.hasFlag(FrameFlags.NEXT)).isFalse();
        }
        // The handler was asked for 1, then, the demand being unbounded, for batch after batch.
        assertThat(server.handler.streamRequests).first().isEqualTo(1L);
        assertThat(server.handler.streamRequests).hasSizeGreaterThan(4)
            .allSatisfy(n -> assertThat(n).isBetween(1L, 256L));
    }

    @Test
    void unboundedDemandOnAnEndlessStreamLeavesTheEventLoopFreeToServe() throws Exception {
        server = ServerUnderTest.start();
        try (ScriptedPeer peer = server.connectAndSetup()) {
            peer.keepAlivesVisible(true);
            // An endless synchronous source and unbounded demand, then a KEEPALIVE in the same write. Had the whole
            // demand gone upstream at once, the event loop would be emitting forever and never get to it.
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            append(out, TestFrames.requestStream(1, Integer.MAX_VALUE, "endless"));
            append(out, TestFrames.keepAlive(true, "still there?"));
            peer.sendRaw(out.toByteArray());
            int payloads = 0;
            for (ReceivedFrame f = peer.receive(); f.type() != FrameType.KEEPALIVE; f = peer.receive()) {
                assertThat(f.type()).isEqualTo(FrameType.PAYLOAD);
                payloads++;
                assertThat(payloads).as("payloads before the KEEPALIVE answer").isLessThan(1_000_000);
            }
            peer.send(TestFrames.cancel(1));
            peer.keepAlivesVisible(false);
            peer.send(TestFrames.requestResponse(3, "ping-3"));
            // Payloads of stream 1 written before the CANCEL arrived may still come; then the ping's answer.
            ReceivedFrame f = peer.receive();
            for (int late = 0; f.type() == FrameType.PAYLOAD && f.streamId() == 1; late++) {
                assertThat(late).as("payloads after the CANCEL").isLessThan(1_000_000);
                f = peer.receive();
            }
            assertThat(f.streamId()).as("%s", f).isEqualTo(3);
            assertThat(dataOf(f)).isEqualTo("ping-3");
            server.handler.streamCancelled.get(ServerUnderTest.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        assertThat(server.handler.streamRequests).allSatisfy(n -> assertThat(n).isBetween(1L, 256L));
    }

    private static String dataOf(ReceivedFrame payload) {
        return payload.dataUtf8(PayloadFrame.PAYLOAD_START);
    }

    private static void append(ByteArrayOutputStream out, ByteBuf frame) {
        try {
            int len = frame.readableBytes();
            out.write(len >>> 16);
            out.write(len >>> 8);
            out.write(len);
            byte[] b = new byte[len];
            frame.getBytes(frame.readerIndex(), b);
            out.write(b, 0, len);
        } finally {
            frame.release();
        }
    }
}
