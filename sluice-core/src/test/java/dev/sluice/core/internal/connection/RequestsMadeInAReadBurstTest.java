package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.nextComplete;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * Requests made while the engine handles a read burst (from an answer's subscriber) start when the burst ends, and
 * they go out in the order they were made, whatever their interaction. A peer that answers a request sent after a
 * run of fire-and-forgets (a fence) relies on that order: when the request overtook the fire-and-forgets made
 * before it, a burst that ended two such runs sent both runs first and both requests after them, and the two sides
 * took turns for the rest of the connection's life.
 */
class RequestsMadeInAReadBurstTest {

    private final EnginePeer peer = EnginePeer.client();
    private final List<Throwable> errors = new ArrayList<>();

    @AfterEach
    void close() {
        peer.close();
    }

    @Test
    void fireAndForgetsAndARequestResponseMadeWhileAnAnswerIsReadGoOutInTheOrderTheyWereMade() {
        Connection requester = peer.requester();
        requester.requestResponse(Payload.create("first")).subscribe(answer -> {
            answer.release();
            requester.fireAndForget(Payload.create("a")).subscribe(null, errors::add);
            requester.requestResponse(Payload.create("fence")).subscribe(Payload::release, errors::add);
            requester.fireAndForget(Payload.create("b")).subscribe(null, errors::add);
        }, errors::add);
        assertThat(peer.written()).containsExactly("REQUEST_RESPONSE 1 data=first");

        peer.send(nextComplete(1, "answer"));

        assertThat(peer.written()).containsExactly(
            "REQUEST_FNF 3 data=a",
            "REQUEST_RESPONSE 5 data=fence",
            "REQUEST_FNF 7 data=b");
        assertThat(errors).isEmpty();
    }

    @Test
    void requestsOfEveryInteractionMadeWhileAnAnswerIsReadGoOutInTheOrderTheyWereMade() {
        Connection requester = peer.requester();
        requester.requestResponse(Payload.create("first")).subscribe(answer -> {
            answer.release();
            requester.requestResponse(Payload.create("r")).subscribe(Payload::release, errors::add);
            requester.requestStream(Payload.create("s")).subscribe(Payload::release, errors::add);
            requester.requestChannel(Flux.just(Payload.create("c"))).subscribe(Payload::release, errors::add);
            requester.fireAndForget(Payload.create("f")).subscribe(null, errors::add);
        }, errors::add);
        assertThat(peer.written()).containsExactly("REQUEST_RESPONSE 1 data=first");

        peer.send(nextComplete(1, "answer"));

        assertThat(peer.written()).containsExactly(
            "REQUEST_RESPONSE 3 data=r",
            "REQUEST_STREAM 5 n=9223372036854775807 data=s",
            "REQUEST_CHANNEL 7 n=9223372036854775807 data=c",
            "PAYLOAD 7 C",
            "REQUEST_FNF 9 data=f");
        assertThat(errors).isEmpty();
    }
}
