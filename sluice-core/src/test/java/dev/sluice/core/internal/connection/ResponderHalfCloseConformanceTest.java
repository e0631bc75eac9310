package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.cancel;
import static dev.sluice.core.internal.connection.PeerFrames.complete;
import static dev.sluice.core.internal.connection.PeerFrames.error;
import static dev.sluice.core.internal.connection.PeerFrames.next;
import static dev.sluice.core.internal.connection.PeerFrames.nextComplete;
import static dev.sluice.core.internal.connection.PeerFrames.requestChannel;
import static dev.sluice.core.internal.connection.PeerFrames.requestN;
import static dev.sluice.core.internal.connection.PeerFrames.requestStream;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.internal.stream.OutboundDemand;
import dev.sluice.frame.ErrorCodes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.test.publisher.TestPublisher;

/**
 * Half-close with Sluice as the responder: a server connection, after the test's SETUP, serves the test's
 * request-channel and request-stream with a handler whose answer the test drives, while the test plays the client
 * frame by frame. Each test is named for the order of events it checks, and asserts the exact frames Sluice
 * writes, the signals the handler sees of the requester's payloads, and that the stream leaves the registry.
 *
 * <p>The protocol (shared/reference/rsocket-protocol.md §1.11): each direction of a channel completes on its own;
 * the requester's CANCEL ends our outbound side; ERROR ends both directions. A request-stream ends with our
 * COMPLETE or ERROR, or the requester's CANCEL. Frames on a stream that ended are ignored.
 */
class ResponderHalfCloseConformanceTest {

    /** The handler's subscriber to the requester's payloads (a channel's inbound side). */
    private final SignalRecorder inbound = new SignalRecorder();
    /** The handler's answer: our outbound side. */
    private TestPublisher<Payload> outbound = TestPublisher.create();
    /** What the engine asked of {@link #outbound}, request by request. */
    private final List<Long> outboundRequests = new ArrayList<>();
    /**
     * The engine subscribes to {@link #outbound} itself, without the operator that records its requests: for
     * publishers that break Reactive Streams, whose stray signals that operator would drop before the engine.
     */
    private boolean direct;
    /** What the channel handler requests of its inbound side as soon as it is called. */
    private long handlerDemand;
    private final EnginePeer peer = EnginePeer.server(new RSocket() {
        @Override
        public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
            payloads.subscribe(inbound);
            inbound.request(handlerDemand);
            return answer();
        }

        @Override
        public Flux<Payload> requestStream(Payload payload) {
            payload.release();
            return answer();
        }
    });

    @AfterEach
    void close() {
        peer.close();
    }

    // --- request-channel: both sides complete, in either order ---------------------------------------------------

    @Test
    void channelOurCompleteThenPeerPayloadsThenPeerComplete() {
        openChannel(1, 3, "REQUEST_N 1 n=2");
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(peer.isActive(1)).as("the requester's side is still open").isTrue();

        peer.send(next(1, "b"));
        peer.send(nextComplete(1, "c"));
        assertThat(inbound.take()).containsExactly("next b", "next c", "complete");
        assertThat(peer.written()).isEmpty();
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    @Test
    void channelPeerCompleteThenOurPayloadsThenOurComplete() {
        openChannel(1, 1);
        peer.send(complete(1));
        assertThat(inbound.take()).containsExactly("complete");
        assertThat(peer.isActive(1)).as("our side is still open").isTrue();

        // Credits granted after the requester's COMPLETE still count: its side is done, ours is not. More than one
        // batch of them, so that the handler's Flux must be asked again once the first batch went out.
        int count = OutboundDemand.BATCH + 44;
        peer.send(requestN(1, count - 1));
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            outbound.next(Payload.create("p" + i));
            peer.runTasks();
            expected.add("PAYLOAD 1 N data=p" + i);
        }
        outbound.complete();
        expected.add("PAYLOAD 1 C");
        assertThat(peer.written()).as("nothing we send after the requester's COMPLETE is dropped")
            .containsExactlyElementsOf(expected);
        assertThat(outboundRequests).containsExactly(1L, (long) OutboundDemand.BATCH, 43L);
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    @Test
    void channelPeerCompleteInItsRequestFrameThenOurPayloadsThenOurComplete() {
        handlerDemand = 1;
        peer.send(requestChannel(1, 2, true, "a"));
        assertThat(inbound.take()).containsExactly("next a", "complete");
        assertThat(peer.written()).as("no REQUEST_N for a side that ended").isEmpty();

        outbound.next(Payload.create("x"));
        outbound.next(Payload.create("y"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 N data=y", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    // --- request-channel: CANCEL after a COMPLETE ---------------------------------------------------------------

    @Test
    void channelPeerCompleteThenPeerCancel() {
        openChannel(2, 1);
        peer.send(complete(1));
        outbound.next(Payload.create("x"));
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x");

        peer.send(cancel(1));
        outbound.assertCancelled();
        assertThat(peer.written()).as("a side the requester cancelled sends no COMPLETE").isEmpty();
        assertThat(inbound.take()).containsExactly("complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenPeerCancelEndsBothSides() {
        openChannel(1, 3, "REQUEST_N 1 n=2");
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");

        // The requester's CANCEL ends the channel, its own side included (as rsocket-java's responder reads it):
        // the handler's inbound ends with an error, and later frames on the stream are ignored.
        peer.send(cancel(1));
        assertThat(peer.written()).isEmpty();
        assertThat(inbound.take()).containsExactly(
            "error CancellationException: the requester cancelled request-channel stream 1");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerCancelWhileBothSidesOpenEndsBothSides() {
        openChannel(1, 3, "REQUEST_N 1 n=2");
        outbound.next(Payload.create("x"));
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x");

        peer.send(cancel(1));
        outbound.assertCancelled();
        assertThat(peer.written()).as("a side the requester cancelled sends no COMPLETE").isEmpty();
        assertThat(inbound.take()).containsExactly(
            "error CancellationException: the requester cancelled request-channel stream 1");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerCompleteThenOurCancelSendsNothing() {
        openChannel(2, 2, "REQUEST_N 1 n=1");
        peer.send(nextComplete(1, "b"));
        assertThat(inbound.take()).containsExactly("next b", "complete");

        inbound.cancel();
        assertThat(peer.written()).as("no CANCEL for a side that completed").isEmpty();
        outbound.next(Payload.create("x"));
        outbound.next(Payload.create("y"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 N data=y", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenOurCancel() {
        openChannel(1, 2, "REQUEST_N 1 n=1");
        outbound.complete();
        inbound.cancel();
        assertThat(peer.written()).as("the CANCEL ends the requester's side")
            .containsExactly("PAYLOAD 1 C", "CANCEL 1");
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    // --- request-channel: ERROR after a COMPLETE ends both directions --------------------------------------------

    @Test
    void channelPeerCompleteThenPeerError() {
        openChannel(2, 1);
        peer.send(complete(1));
        outbound.next(Payload.create("x"));
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "requester failed"));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x");
        outbound.assertCancelled();
        assertThat(inbound.take()).as("the handler's inbound had completed: the ERROR is not signalled")
            .containsExactly("complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenPeerError() {
        openChannel(1, 2, "REQUEST_N 1 n=1");
        outbound.complete();
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "requester failed"));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(inbound.take()).containsExactly("error ApplicationErrorException: requester failed");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerCompleteThenOurError() {
        handlerDemand = 1;
        peer.send(requestChannel(1, 2, true, "a"));
        assertThat(inbound.take()).containsExactly("next a", "complete");
        outbound.error(new IllegalStateException("handler failed"));

        assertThat(peer.written()).containsExactly("ERROR 1 APPLICATION_ERROR: handler failed");
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    @Test
    void channelOurCompleteThenAStrayErrorFromOurHandlerIsIgnored() {
        // A handler whose Flux breaks Reactive Streams by signalling onError after onComplete.
        outbound = TestPublisher.createNoncompliant(TestPublisher.Violation.CLEANUP_ON_TERMINATE);
        direct = true;
        openChannel(1, 2, "REQUEST_N 1 n=1");
        outbound.complete();
        outbound.error(new IllegalStateException("after complete"));
        assertThat(peer.written()).as("our side ended with its COMPLETE").containsExactly("PAYLOAD 1 C");

        peer.send(nextComplete(1, "b"));
        assertThat(inbound.take()).containsExactly("next b", "complete");
        peer.assertStreamGone(1);
    }

    // --- request-channel: credits ------------------------------------------------------------------------------

    @Test
    void channelOurCompleteThenPeerRequestNIsIgnored() {
        openChannel(1, 2, "REQUEST_N 1 n=1");
        outbound.complete();
        peer.send(requestN(1, 10));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(outboundRequests).as("nothing more is asked of a completed Flux").containsExactly(1L);
        peer.send(nextComplete(1, "b"));
        assertThat(inbound.take()).containsExactly("next b", "complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerPayloadBeyondCreditsFailsTheChannelWithInvalid() {
        openChannel(1, 2, "REQUEST_N 1 n=1");
        peer.send(next(1, "b"));
        peer.send(next(1, "c"));

        assertThat(peer.written())
            .containsExactly("ERROR 1 INVALID: requester sent more payloads than requested on stream 1");
        outbound.assertCancelled();
        assertThat(inbound.take()).containsExactly("next b",
            "error InvalidException: requester sent more payloads than requested on stream 1");
        peer.assertStreamGone(1);
    }

    // --- request-stream -----------------------------------------------------------------------------------------

    @Test
    void streamOurCompleteThenPeerCancelSendsNothing() {
        openStream(2);
        outbound.next(Payload.create("x"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 C");

        peer.send(cancel(1));
        assertThat(peer.written()).isEmpty();
        outbound.assertNotCancelled();
        peer.assertStreamGone(1);
    }

    @Test
    void streamPeerCancelThenLateHandlerElementsAreDropped() {
        // A Flux whose cancel takes effect late: it still emits, as one running on another thread may.
        outbound = TestPublisher.createNoncompliant(TestPublisher.Violation.DEFER_CANCELLATION);
        direct = true;
        openStream(3);
        outbound.next(Payload.create("x"));
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x");

        peer.send(cancel(1));
        outbound.assertCancelled();
        // Pooled payloads: one written or kept by mistake shows, and so would one not released.
        outbound.next(Payload.create("late"));
        outbound.complete();
        assertThat(peer.written()).isEmpty();
        peer.assertStreamGone(1);
    }

    @Test
    void streamOurCompleteThenPeerErrorIsIgnored() {
        openStream(1);
        outbound.next(Payload.create("x"));
        outbound.complete();
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "after complete"));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    @Test
    void streamOurCompleteThenPeerRequestNIsIgnored() {
        openStream(1);
        outbound.next(Payload.create("x"));
        outbound.complete();
        peer.send(requestN(1, 5));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 C");
        assertThat(outboundRequests).containsExactly(1L);
        peer.assertStreamGone(1);
    }

    @Test
    void streamPeerPayloadIsIgnoredItsSideWasTheRequest() {
        openStream(2);
        peer.send(next(1, "p"));
        assertThat(peer.written()).isEmpty();
        assertThat(peer.isActive(1)).isTrue();

        outbound.next(Payload.create("x"));
        outbound.next(Payload.create("y"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 N data=y", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    // ---------------------------------------------------------------------------------------------------------

    /** The handler's answer: {@link #outbound}, recording what the engine asks of it unless {@link #direct}. */
    private Flux<Payload> answer() {
        return direct ? Flux.from(outbound) : outbound.flux().doOnRequest(outboundRequests::add);
    }

    /**
     * Opens channel 1: REQUEST_CHANNEL with {@code n} credits for us and payload "a", which the handler gets once
     * it requests ({@code demand} at once). The rest of its demand goes to the requester as the given frames.
     */
    private void openChannel(long n, long demand, String... written) {
        handlerDemand = demand;
        peer.send(requestChannel(1, n, false, "a"));
        assertThat(inbound.take()).containsExactly("next a");
        assertThat(peer.written()).containsExactly(written);
        if (!direct) {
            assertThat(outboundRequests).as("our credits, asked of the handler's Flux").containsExactly(n);
        }
    }

    /** Opens request-stream 1 with {@code n} credits, all asked of the handler's Flux at once. */
    private void openStream(long n) {
        peer.send(requestStream(1, n, "s"));
        assertThat(peer.written()).isEmpty();
        if (!direct) {
            assertThat(outboundRequests).containsExactly(n);
        }
    }
}
