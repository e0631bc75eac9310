package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.cancel;
import static dev.sluice.core.internal.connection.PeerFrames.complete;
import static dev.sluice.core.internal.connection.PeerFrames.error;
import static dev.sluice.core.internal.connection.PeerFrames.next;
import static dev.sluice.core.internal.connection.PeerFrames.nextComplete;
import static dev.sluice.core.internal.connection.PeerFrames.requestN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.internal.stream.OutboundDemand;
import dev.sluice.frame.ErrorCodes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.test.publisher.TestPublisher;

/**
 * Half-close with Sluice as the requester: a client connection's requester starts request-channel and
 * request-stream, and the test answers frame by frame as the server. Each test is named for the order of events
 * it checks, and asserts the exact frames Sluice writes, the signals its subscriber gets, and that the stream
 * leaves the registry.
 *
 * <p>The protocol (shared/reference/rsocket-protocol.md §1.11): each direction of a channel completes on its own;
 * the responder's CANCEL ends our outbound side only; ERROR ends both directions. A request-stream ends with the
 * responder's COMPLETE or ERROR, or our CANCEL. Frames on a stream that ended are ignored.
 */
class RequesterHalfCloseConformanceTest {

    private final EnginePeer peer = EnginePeer.client();
    /** The subscriber to the channel's or stream's responses. */
    private final SignalRecorder inbound = new SignalRecorder();
    /** A channel's outbound side, as the caller's publisher. */
    private TestPublisher<Payload> outbound = TestPublisher.create();
    /** What the engine asked of {@link #outbound}, request by request. */
    private final List<Long> outboundRequests = new ArrayList<>();
    /**
     * The engine subscribes to {@link #outbound} itself, without the operator that records its requests: for
     * publishers that break Reactive Streams, whose stray signals that operator would drop before the engine.
     */
    private boolean direct;

    @AfterEach
    void close() {
        peer.close();
    }

    // --- request-channel: both sides complete, in either order ---------------------------------------------------

    @Test
    void channelOurCompleteThenPeerPayloadsThenPeerComplete() {
        openChannel(3);
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(peer.isActive(1)).as("the peer's side is still open").isTrue();

        peer.send(next(1, "x"));
        peer.send(next(1, "y"));
        peer.send(nextComplete(1, "z"));
        assertThat(inbound.take()).containsExactly("next x", "next y", "next z", "complete");
        assertThat(peer.written()).isEmpty();
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    @Test
    void channelPeerCompleteThenOurPayloadsThenOurComplete() {
        openChannel(1);
        peer.send(complete(1));
        assertThat(inbound.take()).containsExactly("complete");
        assertThat(peer.isActive(1)).as("our side is still open").isTrue();

        // Credits granted after the peer's COMPLETE still count: its side is done, ours is not. More than one batch
        // of them, so that the source must be asked again once the first batch went out (the source once stalled).
        int count = OutboundDemand.BATCH + 44;
        peer.send(requestN(1, count));
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            outbound.next(Payload.create("p" + i));
            peer.runTasks();
            expected.add("PAYLOAD 1 N data=p" + i);
        }
        outbound.complete();
        expected.add("PAYLOAD 1 C");
        assertThat(peer.written()).as("nothing we send after the peer's COMPLETE is dropped")
            .containsExactlyElementsOf(expected);
        assertThat(outboundRequests).containsExactly(1L, (long) OutboundDemand.BATCH, 44L);
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    // --- request-channel: CANCEL after a COMPLETE ---------------------------------------------------------------

    @Test
    void channelPeerCompleteThenPeerCancel() {
        openChannel(1);
        peer.send(requestN(1, 5));
        peer.send(complete(1));
        outbound.next(Payload.create("b"));
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=b");

        peer.send(cancel(1));
        outbound.assertCancelled();
        assertThat(peer.written()).as("a side the peer cancelled sends no COMPLETE").isEmpty();
        assertThat(inbound.take()).containsExactly("complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenPeerCancelThenPeerPayloadsAndComplete() {
        openChannel(2);
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");

        peer.send(cancel(1));
        assertThat(peer.written()).isEmpty();
        assertThat(peer.isActive(1)).as("the CANCEL ends only our side, which had ended already").isTrue();
        peer.send(next(1, "x"));
        peer.send(complete(1));
        assertThat(inbound.take()).containsExactly("next x", "complete");
        assertThat(peer.written()).isEmpty();
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerCompleteThenOurCancelChangesNothing() {
        openChannel(1);
        peer.send(requestN(1, 2));
        peer.send(complete(1));
        assertThat(inbound.take()).containsExactly("complete");

        // Reactive Streams: a cancel after onComplete is a no-op. Our side is still open and goes on.
        inbound.cancel();
        assertThat(peer.written()).as("no CANCEL: the peer's side has ended").isEmpty();
        outbound.assertNotCancelled();
        outbound.next(Payload.create("b"));
        outbound.next(Payload.create("c"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=b", "PAYLOAD 1 N data=c", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenOurCancel() {
        openChannel(2);
        outbound.complete();
        peer.send(next(1, "x"));
        inbound.cancel();
        assertThat(peer.written()).as("the CANCEL ends the peer's side").containsExactly("PAYLOAD 1 C", "CANCEL 1");
        assertThat(inbound.take()).containsExactly("next x");
        peer.assertStreamGone(1);
        assertThat(inbound.take()).isEmpty();
    }

    // --- request-channel: ERROR after a COMPLETE ends both directions --------------------------------------------

    @Test
    void channelPeerCompleteThenPeerError() {
        openChannel(1);
        peer.send(requestN(1, 5));
        peer.send(complete(1));
        outbound.next(Payload.create("b"));
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "responder failed"));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=b");
        outbound.assertCancelled();
        assertThat(inbound.take()).as("the subscriber had completed: the ERROR is not signalled")
            .containsExactly("complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenPeerError() {
        openChannel(2);
        outbound.complete();
        peer.send(next(1, "x"));
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "responder failed"));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(inbound.take()).containsExactly("next x", "error ApplicationErrorException: responder failed");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerCompleteThenOurError() {
        openChannel(1);
        peer.send(complete(1));
        outbound.error(new IllegalStateException("source failed"));

        assertThat(peer.written()).containsExactly("ERROR 1 APPLICATION_ERROR: source failed");
        assertThat(inbound.take()).containsExactly("complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelOurCompleteThenAStrayErrorFromOurSourceIsIgnored() {
        // A source that breaks Reactive Streams by signalling onError after onComplete.
        outbound = TestPublisher.createNoncompliant(TestPublisher.Violation.CLEANUP_ON_TERMINATE);
        direct = true;
        openChannel(2);
        outbound.complete();
        outbound.error(new IllegalStateException("after complete"));
        assertThat(peer.written()).as("our side ended with its COMPLETE").containsExactly("PAYLOAD 1 C");

        peer.send(nextComplete(1, "x"));
        assertThat(inbound.take()).containsExactly("next x", "complete");
        peer.assertStreamGone(1);
    }

    // --- request-channel: credits ------------------------------------------------------------------------------

    @Test
    void channelOurCompleteThenPeerRequestNIsIgnored() {
        openChannel(1);
        outbound.complete();
        peer.send(requestN(1, 10));

        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        assertThat(outboundRequests).as("nothing more is asked of a completed source").containsExactly(1L);
        peer.send(nextComplete(1, "x"));
        assertThat(inbound.take()).containsExactly("next x", "complete");
        peer.assertStreamGone(1);
    }

    @Test
    void channelPeerPayloadBeyondCreditsCancelsTheChannel() {
        openChannel(1);
        peer.send(next(1, "x"));
        peer.send(next(1, "y"));

        assertThat(peer.written()).containsExactly("CANCEL 1");
        outbound.assertCancelled();
        assertThat(inbound.take()).containsExactly("next x",
            "error InvalidException: peer sent more payloads than requested on stream 1; channel cancelled");
        peer.assertStreamGone(1);
    }

    // --- request-stream -----------------------------------------------------------------------------------------

    @Test
    void streamPeerCompleteThenOurCancelSendsNothing() {
        openStream(2);
        peer.send(next(1, "x"));
        peer.send(complete(1));
        inbound.cancel();

        assertThat(peer.written()).as("no frame for a cancel after the end").isEmpty();
        assertThat(inbound.take()).as("and no error").containsExactly("next x", "complete");
        peer.assertStreamGone(1);
    }

    @Test
    void streamOurCancelThenLatePayloadAndCompleteAreIgnored() {
        openStream(3);
        peer.send(next(1, "x"));
        inbound.cancel();
        assertThat(peer.written()).containsExactly("CANCEL 1");

        // Sent before the peer saw our CANCEL. Each frame is a pooled buffer: a payload kept by mistake would leak.
        peer.send(next(1, "late"));
        peer.send(nextComplete(1, "late"));
        peer.send(complete(1));
        assertThat(peer.written()).isEmpty();
        assertThat(inbound.take()).containsExactly("next x");
        peer.assertStreamGone(1);
    }

    @Test
    void streamPeerCompleteThenPeerErrorIsIgnored() {
        openStream(1);
        peer.send(nextComplete(1, "x"));
        peer.send(error(1, ErrorCodes.APPLICATION_ERROR, "after complete"));

        assertThat(peer.written()).isEmpty();
        assertThat(inbound.take()).containsExactly("next x", "complete");
        peer.assertStreamGone(1);
    }

    @Test
    void streamPeerRequestNIsIgnoredOurSideEndedWithTheRequest() {
        openStream(2);
        peer.send(requestN(1, 5));
        assertThat(peer.written()).isEmpty();

        peer.send(nextComplete(1, "x"));
        assertThat(inbound.take()).containsExactly("next x", "complete");
        peer.assertStreamGone(1);
    }

    @Test
    void streamPeerPayloadBeyondCreditsCancelsTheStream() {
        openStream(1);
        peer.send(next(1, "x"));
        peer.send(next(1, "y"));

        assertThat(peer.written()).containsExactly("CANCEL 1");
        assertThat(inbound.take()).containsExactly("next x",
            "error InvalidException: peer sent more payloads than requested on stream 1; stream cancelled");
        inbound.request(5);
        assertThat(peer.written()).as("no demand for a failed stream").isEmpty();
        peer.assertStreamGone(1);
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Opens stream 1 as a channel: our first payload "a" goes out in REQUEST_CHANNEL with the inbound demand. */
    private void openChannel(long demand) {
        Publisher<Payload> source = direct ? outbound : outbound.flux().doOnRequest(outboundRequests::add);
        peer.requester().requestChannel(source).subscribe(inbound);
        inbound.request(demand);
        outbound.next(Payload.create("a"));
        assertThat(peer.written()).containsExactly("REQUEST_CHANNEL 1 n=" + demand + " data=a");
    }

    /** Opens stream 1 as a request-stream with the subscriber's demand. */
    private void openStream(long demand) {
        peer.requester().requestStream(Payload.create("s")).subscribe(inbound);
        inbound.request(demand);
        assertThat(peer.written()).containsExactly("REQUEST_STREAM 1 n=" + demand + " data=s");
    }
}
