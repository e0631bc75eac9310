package dev.sluice.transport.netty.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.RequestStreamFrame;
import dev.sluice.testkit.ReceivedFrame;
import dev.sluice.testkit.ScriptedPeer;
import dev.sluice.testkit.ScriptedServer;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.subscriber.TestSubscriber;

/**
 * A Sluice client against a scripted server: the requester's side of "Handling the Unexpected" and of flow
 * control. A responder that sends more than was requested gets the stream cancelled, not our memory; demand of
 * 2^31-1 is unbounded; setup errors after establishment and SETUP frames are ignored; a request-response PAYLOAD
 * without C completes; F with C ends a fragmented payload.
 */
class RequesterConformanceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ScriptedServer scripted;
    private Connection client;
    private ScriptedPeer server;

    @BeforeEach
    void connect() {
        scripted = ScriptedServer.start();
        client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", scripted.port()))
            .block(TIMEOUT);
        server = scripted.accept();
        server.expectFrame(FrameType.SETUP, 0);
    }

    @AfterEach
    void close() {
        client.dispose();
        server.close();
        scripted.close();
    }

    @Test
    void responderSendingMoreThanRequestedOnStreamGetsCancelled() {
        TestSubscriber<String> got = TestSubscriber.<String>builder().initialRequest(2).build();
        client.requestStream(Payload.create("s")).map(RequesterConformanceTest::take).subscribe(got);
        ReceivedFrame request = server.expectFrame(FrameType.REQUEST_STREAM, 1);
        assertThat(request.intAt(RequestStreamFrame.INITIAL_REQUEST_N_OFFSET)).isEqualTo(2);
        server.send(TestFrames.next(1, "a")).send(TestFrames.next(1, "b")).send(TestFrames.next(1, "c"));
        // The third was never asked for: the stream is cancelled on the wire and fails locally.
        server.expectFrame(FrameType.CANCEL, 1);
        got.block(TIMEOUT);
        assertThat(got.getReceivedOnNext()).containsExactly("a", "b");
        assertThat(got.expectTerminalError()).isInstanceOf(InvalidException.class)
            .hasMessage("peer sent more payloads than requested on stream 1; stream cancelled");
        // Whatever else it sends for that stream is dropped on arrival.
        server.send(TestFrames.next(1, "d")).send(TestFrames.complete(1));
        pingFromClient(3);
    }

    @Test
    void responderSendingMoreThanRequestedOnChannelGetsCancelled() {
        TestSubscriber<String> got = TestSubscriber.<String>builder().initialRequest(1).build();
        client.requestChannel(Flux.just(Payload.create("first"))).map(RequesterConformanceTest::take).subscribe(got);
        ReceivedFrame request = server.expectFrame(FrameType.REQUEST_CHANNEL, 1);
        assertThat(request.intAt(6)).isEqualTo(1);
        server.send(TestFrames.next(1, "a")).send(TestFrames.next(1, "b"));
        // Our outbound side completed (Flux.just), then the excess inbound payload cancels the channel.
        assertThat(server.receive()).satisfies(f -> {
            assertThat(f.type()).isEqualTo(FrameType.PAYLOAD);
            assertThat(f.hasFlag(FrameFlags.COMPLETE)).isTrue();
        });
        server.expectFrame(FrameType.CANCEL, 1);
        got.block(TIMEOUT);
        assertThat(got.getReceivedOnNext()).containsExactly("a");
        assertThat(got.expectTerminalError()).isInstanceOf(InvalidException.class)
            .hasMessage("peer sent more payloads than requested on stream 1; channel cancelled");
        pingFromClient(3);
    }

    @Test
    void demandOfTwoToTheThirtyOneMinusOneIsUnbounded() {
        TestSubscriber<String> got = TestSubscriber.<String>builder().initialRequest(Integer.MAX_VALUE).build();
        client.requestStream(Payload.create("s")).map(RequesterConformanceTest::take).subscribe(got);
        ReceivedFrame request = server.expectFrame(FrameType.REQUEST_STREAM, 1);
        assertThat(request.intAt(RequestStreamFrame.INITIAL_REQUEST_N_OFFSET)).isEqualTo(Integer.MAX_VALUE);
        // More demand on top of unbounded sends nothing: the next frame is the request-response below.
        got.request(5);
        got.request(Long.MAX_VALUE);
        Mono<Payload> ping = client.requestResponse(Payload.create("ping"));
        TestSubscriber<Payload> pong = TestSubscriber.create();
        ping.subscribe(pong);
        server.expectFrame(FrameType.REQUEST_RESPONSE, 3);
        server.send(TestFrames.payload(3, false, true, true, null, "pong"));
        pong.block(TIMEOUT);
        pong.getReceivedOnNext().forEach(Payload::release);
        // Far more than 5 payloads arrive, all accepted: 2^31-1 meant unbounded, not a count.
        for (int i = 0; i < 1000; i++) {
            server.send(TestFrames.next(1, "p" + i));
        }
        server.send(TestFrames.complete(1));
        got.block(TIMEOUT);
        assertThat(got.getReceivedOnNext()).hasSize(1000);
        assertThat(got.isTerminatedComplete()).isTrue();
    }

    @Test
    void setupErrorAfterEstablishmentIsIgnored() {
        pingFromClient(1);
        server.send(TestFrames.error(0, ErrorCodes.INVALID_SETUP, "too late"));
        server.send(TestFrames.error(0, ErrorCodes.UNSUPPORTED_SETUP, "too late"));
        server.send(TestFrames.error(0, ErrorCodes.REJECTED_SETUP, "too late"));
        server.send(TestFrames.error(0, ErrorCodes.REJECTED_RESUME, "too late"));
        pingFromClient(3);
        assertThat(client.isDisposed()).isFalse();
    }

    @Test
    void setupErrorBeforeEstablishmentClosesTheClient() {
        TestSubscriber<Payload> pending = TestSubscriber.create();
        client.requestResponse(Payload.create("waits")).subscribe(pending);
        server.expectFrame(FrameType.REQUEST_RESPONSE, 1);
        server.send(TestFrames.error(0, ErrorCodes.REJECTED_SETUP, "go away"));
        pending.block(TIMEOUT);
        assertThat(pending.expectTerminalError()).isInstanceOf(RejectedSetupException.class).hasMessage("go away");
        client.onClose().block(TIMEOUT);
        assertThat(server.expectClosed()).isEmpty();
    }

    @Test
    void setupFrameReceivedByClientIsIgnored() {
        server.send(TestFrames.setup());
        pingFromClient(1);
    }

    @Test
    void requestResponsePayloadWithoutCompleteIsComplete() {
        Mono<String> reply = client.requestResponse(Payload.create("q")).map(RequesterConformanceTest::take);
        StepVerifier.create(reply)
            .then(() -> {
                server.expectFrame(FrameType.REQUEST_RESPONSE, 1);
                server.send(TestFrames.next(1, "answer"));
            })
            .expectNext("answer")
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void payloadWithFollowsAndCompleteEndsTheFragmentedPayload() {
        Flux<String> stream = client.requestStream(Payload.create("q")).map(RequesterConformanceTest::take);
        StepVerifier.create(stream)
            .then(() -> {
                server.expectFrame(FrameType.REQUEST_STREAM, 1);
                // A full first fragment (senders fill all but the last to their MTU, at least 61 bytes).
                server.send(TestFrames.payload(1, true, false, true, "m1", "ab".repeat(30)));
                // F and C together: C wins, so this is the last fragment and the end of the stream.
                server.send(TestFrames.payload(1, true, true, true, "m2", "cd"));
            })
            .expectNext("ab".repeat(30) + "cd")
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void requesterStreamIdsAreOddAndIncreasing() {
        List<Mono<Payload>> calls = List.of(client.requestResponse(Payload.create("a")),
            client.requestResponse(Payload.create("b")), client.requestResponse(Payload.create("c")));
        List<TestSubscriber<Payload>> subs = calls.stream().map(m -> {
            TestSubscriber<Payload> t = TestSubscriber.create();
            m.subscribe(t);
            return t;
        }).collect(Collectors.toList());
        for (int id : new int[] {1, 3, 5}) {
            server.expectFrame(FrameType.REQUEST_RESPONSE, id);
            server.send(TestFrames.payload(id, false, true, true, null, "r" + id));
        }
        for (TestSubscriber<Payload> t : subs) {
            t.block(TIMEOUT);
            assertThat(t.getReceivedOnNext()).hasSize(1);
            t.getReceivedOnNext().forEach(Payload::release);
        }
    }

    /** The client sends a request-response on {@code streamId}; the scripted server answers; the client gets it. */
    private void pingFromClient(int streamId) {
        TestSubscriber<String> reply = TestSubscriber.create();
        client.requestResponse(Payload.create("ping")).map(RequesterConformanceTest::take).subscribe(reply);
        server.expectFrame(FrameType.REQUEST_RESPONSE, streamId);
        server.send(TestFrames.payload(streamId, false, true, true, null, "pong-" + streamId));
        reply.block(TIMEOUT);
        assertThat(reply.getReceivedOnNext()).containsExactly("pong-" + streamId);
    }

    private static String take(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
