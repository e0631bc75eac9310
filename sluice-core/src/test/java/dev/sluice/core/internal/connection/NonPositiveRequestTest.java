package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.complete;
import static dev.sluice.core.internal.connection.PeerFrames.next;
import static dev.sluice.core.internal.connection.PeerFrames.nextComplete;
import static dev.sluice.core.internal.connection.PeerFrames.requestChannel;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.test.publisher.TestPublisher;

/**
 * {@code request(n)} with n &lt;= 0 on any of the engine's subscriptions, before and after the stream started: the
 * stream is cancelled as by {@code cancel()} (CANCEL on the wire once the request went out, the unsent payload
 * released), and the subscriber gets one {@code IllegalArgumentException} (Reactive Streams rule 3.9) from the event
 * loop, as its only terminal signal. After the subscriber's terminal signal, or after its cancel, such a request
 * does nothing (rule 3.6).
 */
class NonPositiveRequestTest {

    private static final String ERROR =
        "error IllegalArgumentException: request(n) needs n > 0 (Reactive Streams rule 3.9); the stream is cancelled";

    private final SignalRecorder subscriber = new SignalRecorder();
    private final TestPublisher<Payload> outbound = TestPublisher.create();
    private EnginePeer peer = EnginePeer.client();

    @AfterEach
    void close() {
        peer.close();
    }

    // --- request-response -------------------------------------------------------------------------------------

    @Test
    void requestResponseBeforeItsStart() {
        Payload request = Payload.create("r");
        peer.requester().requestResponse(request).subscribe(subscriber);
        subscriber.request(0);
        assertThat(subscriber.take()).containsExactly(ERROR);
        assertThat(peer.written()).as("nothing went out").isEmpty();
        assertThat(request.refCnt()).as("the unsent request is released").isZero();

        subscriber.request(1);
        assertThat(peer.written()).as("a request after the cancel does nothing").isEmpty();
        assertThat(subscriber.take()).isEmpty();
    }

    @Test
    void requestResponseAfterItsStart() {
        peer.requester().requestResponse(Payload.create("r")).subscribe(subscriber);
        subscriber.request(1);
        assertThat(peer.written()).containsExactly("REQUEST_RESPONSE 1 data=r");

        subscriber.request(-1);
        assertThat(peer.written()).containsExactly("CANCEL 1");
        assertThat(subscriber.take()).containsExactly(ERROR);
        peer.send(nextComplete(1, "late"));
        assertThat(subscriber.take()).as("the answer after the cancel").isEmpty();
        peer.assertStreamGone(1);
    }

    @Test
    void requestResponseAfterItsAnswer() {
        peer.requester().requestResponse(Payload.create("r")).subscribe(subscriber);
        subscriber.request(1);
        peer.send(nextComplete(1, "a"));
        assertThat(subscriber.take()).containsExactly("next a", "complete");

        subscriber.request(0);
        assertThat(subscriber.take()).isEmpty();
        assertThat(peer.written()).containsExactly("REQUEST_RESPONSE 1 data=r");
    }

    // --- request-stream ---------------------------------------------------------------------------------------

    @Test
    void requestStreamBeforeItsStart() {
        Payload request = Payload.create("s");
        peer.requester().requestStream(request).subscribe(subscriber);
        subscriber.request(0);
        assertThat(subscriber.take()).containsExactly(ERROR);
        assertThat(peer.written()).as("nothing went out").isEmpty();
        assertThat(request.refCnt()).as("the unsent request is released").isZero();
    }

    @Test
    void requestStreamAfterItsStart() {
        peer.requester().requestStream(Payload.create("s")).subscribe(subscriber);
        subscriber.request(2);
        assertThat(peer.written()).containsExactly("REQUEST_STREAM 1 n=2 data=s");
        peer.send(next(1, "a"));
        assertThat(subscriber.take()).containsExactly("next a");

        subscriber.request(Long.MIN_VALUE);
        assertThat(peer.written()).containsExactly("CANCEL 1");
        assertThat(subscriber.take()).containsExactly(ERROR);
        peer.send(next(1, "late"));
        peer.send(complete(1));
        assertThat(subscriber.take()).as("frames after the cancel").isEmpty();
        peer.assertStreamGone(1);
    }

    @Test
    void requestStreamAfterItsCancel() {
        peer.requester().requestStream(Payload.create("s")).subscribe(subscriber);
        subscriber.request(1);
        subscriber.cancel();
        assertThat(peer.written()).containsExactly("REQUEST_STREAM 1 n=1 data=s", "CANCEL 1");

        subscriber.request(0);
        assertThat(peer.written()).isEmpty();
        assertThat(subscriber.take()).as("a cancelled subscriber gets nothing").isEmpty();
    }

    // --- request-channel, as the requester --------------------------------------------------------------------

    @Test
    void requestChannelAfterItsStart() {
        peer.requester().requestChannel(outbound).subscribe(subscriber);
        subscriber.request(1);
        outbound.next(Payload.create("a"));
        assertThat(peer.written()).containsExactly("REQUEST_CHANNEL 1 n=1 data=a");

        subscriber.request(0);
        assertThat(peer.written()).containsExactly("CANCEL 1");
        assertThat(subscriber.take()).containsExactly(ERROR);
        outbound.assertCancelled();
        peer.assertStreamGone(1);
    }

    @Test
    void requestChannelAfterThePeerCompleted() {
        peer.requester().requestChannel(outbound).subscribe(subscriber);
        subscriber.request(1);
        outbound.next(Payload.create("a"));
        peer.send(complete(1));
        assertThat(subscriber.take()).containsExactly("complete");

        subscriber.request(0);
        assertThat(subscriber.take()).isEmpty();
        assertThat(peer.written()).as("our side goes on: no CANCEL").containsExactly("REQUEST_CHANNEL 1 n=1 data=a");
        outbound.assertNotCancelled();
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }

    // --- request-channel, as the responder: the handler's subscription to the requester's payloads -------------

    @Test
    void responderChannelInboundSide() {
        peer.close();
        peer = EnginePeer.server(new RSocket() {
            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                payloads.subscribe(subscriber);
                return outbound.flux();
            }
        });
        peer.send(requestChannel(1, 1, false, "a"));
        assertThat(peer.written()).isEmpty();

        subscriber.request(0);
        assertThat(peer.written()).as("the requester is told to stop sending").containsExactly("CANCEL 1");
        assertThat(subscriber.take()).as("the first payload is not delivered").containsExactly(ERROR);
        assertThat(peer.isActive(1)).as("our side is still open").isTrue();

        outbound.next(Payload.create("x"));
        outbound.complete();
        assertThat(peer.written()).containsExactly("PAYLOAD 1 N data=x", "PAYLOAD 1 C");
        peer.assertStreamGone(1);
    }
}
