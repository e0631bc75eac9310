package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.requestResponse;
import static dev.sluice.core.internal.connection.PeerFrames.requestStream;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.frame.FrameHeader;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A payload too large for one frame on a connection that does not fragment (MTU 0) cannot be written: the stream it
 * belongs to fails (the caller's subscriber, or the requester through an ERROR frame), nothing of it goes out, it is
 * released, and the connection serves the next request.
 */
class OversizedPayloadTest {

    private final List<Payload> made = new ArrayList<>();
    private EnginePeer peer;

    @AfterEach
    void close() {
        peer.close();
        assertThat(made).allSatisfy(p -> assertThat(p.refCnt()).isZero());
    }

    private Payload oversized() {
        Payload p = Payload.create(ByteBufAllocator.DEFAULT.buffer().writeZero(FrameHeader.MAX_FRAME_LENGTH));
        made.add(p);
        return p;
    }

    @Test
    void aRequestTooLargeForAFrameFailsItsCaller() {
        peer = EnginePeer.client();
        List<Throwable> errors = new ArrayList<>();
        peer.requester().requestResponse(oversized()).subscribe(Payload::release, errors::add);
        peer.requester().requestStream(oversized()).subscribe(Payload::release, errors::add);
        peer.requester().requestChannel(Flux.just(oversized())).subscribe(Payload::release, errors::add);
        peer.requester().fireAndForget(oversized()).subscribe(v -> { }, errors::add);
        peer.runTasks();

        assertThat(errors).hasSize(4).allSatisfy(e -> assertThat(e).hasMessageContaining("fragment the payload"));
        assertThat(peer.written()).isEmpty();
        for (int id = 1; id <= 7; id += 2) {
            assertThat(peer.isActive(id)).as("stream %d", id).isFalse();
        }
        peer.requester().requestResponse(Payload.create("small")).subscribe(Payload::release, closed -> { });
        peer.runTasks();
        assertThat(peer.written()).singleElement().asString().startsWith("REQUEST_RESPONSE");
    }

    @Test
    void anAnswerTooLargeForAFrameBecomesAnError() {
        peer = EnginePeer.server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                boolean big = payload.dataUtf8().equals("big");
                payload.release();
                return Mono.just(big ? oversized() : Payload.create("fine"));
            }

            @Override
            public Flux<Payload> requestStream(Payload payload) {
                payload.release();
                return Flux.just(Payload.create("first"), oversized());
            }
        });
        peer.send(requestResponse(1, "big"));
        peer.send(requestStream(3, 10, "s"));
        peer.send(requestResponse(5, "small"));
        peer.runTasks();

        List<String> written = peer.written();
        assertThat(written).hasSize(4);
        assertThat(written.get(0)).startsWith("ERROR 1 APPLICATION_ERROR").contains("fragment the payload");
        assertThat(written.get(1)).isEqualTo("PAYLOAD 3 N data=first");
        assertThat(written.get(2)).startsWith("ERROR 3 APPLICATION_ERROR").contains("fragment the payload");
        assertThat(written.get(3)).isEqualTo("PAYLOAD 5 N|C data=fine");
    }
}
