package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.PeerFrames.requestChannel;
import static dev.sluice.core.internal.connection.PeerFrames.requestResponse;
import static dev.sluice.core.internal.connection.PeerFrames.requestStream;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.frame.FrameData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Payloads whose data writes itself into its frame ({@link FrameData}, what an RPC message is): every interaction
 * writes them, in both roles, with their metadata read in place; each is released once written; and one whose data
 * fails to write loses its frame, not the connection.
 */
class SelfWritingPayloadTest {

    private final List<Written> made = new ArrayList<>();
    private EnginePeer peer;

    @AfterEach
    void close() {
        if (peer != null) {
            peer.close();
        }
        for (Written w : made) {
            assertThat(w.refCnt()).as("%s released", w.text).isZero();
        }
    }

    @Test
    void aRequesterWritesEachInteractionsFirstFrameFromThePayload() {
        peer = EnginePeer.client();
        // Unanswered, they end with the connection when the test closes it.
        peer.requester().requestResponse(written("q1", "route")).subscribe(Payload::release, closed -> { });
        peer.requester().fireAndForget(written("q2", null)).subscribe();
        peer.requester().requestStream(written("q3", "")).subscribe(Payload::release, closed -> { });
        peer.requester().requestChannel(Flux.just(written("q4", "route"), written("q5", null)))
            .subscribe(Payload::release, closed -> { });
        peer.runTasks();

        assertThat(peer.written()).containsExactly(
            "REQUEST_RESPONSE 1 M metadata=route data=q1",
            "REQUEST_FNF 3 data=q2",
            "REQUEST_STREAM 5 M n=9223372036854775807 metadata= data=q3",
            "REQUEST_CHANNEL 7 M n=9223372036854775807 metadata=route data=q4");
        peer.send(PeerFrames.requestN(7, 1));
        assertThat(peer.written()).containsExactly("PAYLOAD 7 N data=q5", "PAYLOAD 7 C");
        assertThat(made).allSatisfy(w -> assertThat(w.writes).as(w.text).isEqualTo(1));
    }

    @Test
    void aResponderWritesAnswersAndElementsFromThePayloads() {
        peer = EnginePeer.server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                return Mono.just(written("a1", "md"));
            }

            @Override
            public Flux<Payload> requestStream(Payload payload) {
                payload.release();
                return Flux.just(written("a2", null), written("a3", null));
            }

            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                return Flux.from(payloads).map(p -> {
                    String text = p.dataUtf8();
                    p.release();
                    return written("echo " + text, null);
                });
            }
        });
        peer.send(requestResponse(1, "x"));
        peer.send(requestStream(3, 10, "y"));
        peer.send(requestChannel(5, 10, false, "z"));
        peer.runTasks();

        assertThat(peer.written()).containsExactly(
            "PAYLOAD 1 M|N|C metadata=md data=a1",
            "PAYLOAD 3 N data=a2",
            "PAYLOAD 3 N data=a3",
            "PAYLOAD 3 C",
            "PAYLOAD 5 N data=echo z",
            "REQUEST_N 5 n=9");
    }

    @Test
    void anAnswerWhoseDataFailsToWriteLosesItsFrameNotTheConnection() {
        peer = EnginePeer.server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                String text = payload.dataUtf8();
                payload.release();
                Written answer = written(text, null);
                answer.failing = text.equals("fail");
                return Mono.just(answer);
            }
        });
        peer.send(requestResponse(1, "fail"));
        List<String> first = peer.written();
        assertThat(first).hasSize(1);
        assertThat(first.get(0)).startsWith("ERROR 1 APPLICATION_ERROR");
        assertThat(first.get(0)).doesNotContain("data=fa");

        peer.send(requestResponse(3, "fine"));
        assertThat(peer.written()).containsExactly("PAYLOAD 3 N|C data=fine");
    }

    @Test
    void aRequestWhoseDataFailsToWriteFailsItsCallerAndNothingGoesOut() {
        peer = EnginePeer.client();
        Written failing = written("q1", "route");
        failing.failing = true;
        List<Throwable> errors = new ArrayList<>();
        peer.requester().requestResponse(failing).subscribe(p -> p.release(), errors::add);
        peer.requester().requestStream(written("q2", null)).subscribe(p -> p.release(), errors::add);
        peer.runTasks();

        assertThat(errors).as("before the connection closes").singleElement()
            .satisfies(e -> assertThat(e).hasMessage("cannot serialize q1"));
        assertThat(peer.isActive(1)).as("the failed request's stream").isFalse();
        assertThat(peer.written()).containsExactly("REQUEST_STREAM 3 n=9223372036854775807 data=q2");
    }

    private Written written(String text, String metadata) {
        Written w = new Written(text, metadata);
        made.add(w);
        return w;
    }

    /**
     * A payload whose data writes itself and whose metadata is read in place from a shared buffer, as an RPC
     * message's route is: {@code metadata()} (a view) is never asked for by the engine.
     */
    private static final class Written extends FrameData implements Payload {
        final String text;
        final ByteBuf sharedMetadata;
        int writes;
        boolean failing;
        int refCnt = 1;

        Written(String text, String metadata) {
            this.text = text;
            this.sharedMetadata = metadata == null ? null
                : Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(metadata, StandardCharsets.UTF_8));
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public void writeTo(ByteBuf out) {
            writes++;
            if (failing) {
                out.writeByte('f');
                throw new IllegalStateException("cannot serialize " + text);
            }
            out.writeCharSequence(text, StandardCharsets.US_ASCII);
        }

        @Override
        public ByteBuf data() {
            throw new AssertionError("the engine asked for a copy of the data");
        }

        @Override
        public int dataLength() {
            return text.length();
        }

        @Override
        public ByteBuf metadata() {
            throw new AssertionError("the engine asked for a view of the metadata");
        }

        @Override
        public boolean hasMetadata() {
            return sharedMetadata != null;
        }

        @Override
        public ByteBuf metadataBuffer() {
            return sharedMetadata == null ? Unpooled.EMPTY_BUFFER : sharedMetadata;
        }

        @Override
        public int metadataIndex() {
            return sharedMetadata == null ? 0 : sharedMetadata.readerIndex();
        }

        @Override
        public int metadataLength() {
            return sharedMetadata == null ? 0 : sharedMetadata.readableBytes();
        }

        @Override
        public int refCnt() {
            return refCnt;
        }

        @Override
        public Written retain() {
            return retain(1);
        }

        @Override
        public Written retain(int increment) {
            assertThat(refCnt).as("retained after release").isPositive();
            refCnt += increment;
            return this;
        }

        @Override
        public boolean release() {
            return release(1);
        }

        @Override
        public boolean release(int decrement) {
            assertThat(refCnt).as("released too often").isGreaterThanOrEqualTo(decrement);
            refCnt -= decrement;
            return refCnt == 0;
        }

        @Override
        public Written touch() {
            return this;
        }

        @Override
        public Written touch(Object hint) {
            return this;
        }

    }
}
