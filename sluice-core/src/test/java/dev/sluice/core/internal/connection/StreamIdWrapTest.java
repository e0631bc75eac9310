package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.nextComplete;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Past the last stream id of its side (2^31-1 for a client, 2^31-2 for a server) a requester starts again at its
 * first and skips every id still in use, so that a connection carries any number of requests; before the wrap, a
 * connection failed every request after its 2^30th with "stream ids exhausted".
 */
class StreamIdWrapTest {

    private final List<String> answers = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();
    private EnginePeer peer;

    @AfterEach
    void close() {
        peer.close();
    }

    @Test
    void aClientPastTheLastOddIdStartsAgainAtOneAndSkipsTheIdsStillInUse() {
        peer = EnginePeer.client();
        Connection requester = peer.requester();
        request(requester, "held");
        request(requester, "answered");
        assertThat(peer.written()).containsExactly("REQUEST_RESPONSE 1 data=held", "REQUEST_RESPONSE 3 data=answered");
        peer.send(nextComplete(3, "for 3"));

        peer.nextStreamId(Integer.MAX_VALUE - 2);
        request(requester, "last but one");
        request(requester, "last");
        request(requester, "wrapped");
        requester.fireAndForget(Payload.create("fire")).subscribe(null, errors::add);

        // 1 is still in use: the first request after the wrap takes 3, which was answered, and the next id is 5.
        assertThat(peer.written()).containsExactly(
            "REQUEST_RESPONSE 2147483645 data=last but one",
            "REQUEST_RESPONSE 2147483647 data=last",
            "REQUEST_RESPONSE 3 data=wrapped",
            "REQUEST_FNF 5 data=fire");
        peer.send(nextComplete(3, "for wrapped"));
        peer.send(nextComplete(2147483647, "for last"));
        peer.send(nextComplete(1, "for held"));
        assertThat(answers).containsExactly("for 3", "for wrapped", "for last", "for held");
        assertThat(errors).isEmpty();
    }

    @Test
    void aClientWhoseNextIdsAreAllInUseSkipsThemAll() {
        peer = EnginePeer.client();
        Connection requester = peer.requester();
        for (int i = 0; i < 4; i++) {
            request(requester, "held " + i);
        }
        peer.nextStreamId(Integer.MAX_VALUE);
        request(requester, "last");
        request(requester, "wrapped");

        assertThat(peer.written()).containsExactly(
            "REQUEST_RESPONSE 1 data=held 0",
            "REQUEST_RESPONSE 3 data=held 1",
            "REQUEST_RESPONSE 5 data=held 2",
            "REQUEST_RESPONSE 7 data=held 3",
            "REQUEST_RESPONSE 2147483647 data=last",
            "REQUEST_RESPONSE 9 data=wrapped");
        assertThat(errors).isEmpty();
    }

    @Test
    void aServerPastTheLastEvenIdStartsAgainAtTwo() {
        peer = EnginePeer.server(new RSocket() { });
        Connection requester = peer.requester();
        peer.nextStreamId(Integer.MAX_VALUE - 1);
        request(requester, "last");
        request(requester, "wrapped");

        assertThat(peer.written()).containsExactly(
            "REQUEST_RESPONSE 2147483646 data=last",
            "REQUEST_RESPONSE 2 data=wrapped");
        peer.send(nextComplete(2, "for wrapped"));
        assertThat(answers).containsExactly("for wrapped");
        assertThat(errors).isEmpty();
    }

    private void request(Connection requester, String data) {
        requester.requestResponse(Payload.create(data)).subscribe(answer -> {
            answers.add(answer.dataUtf8());
            answer.release();
        }, errors::add);
    }
}
