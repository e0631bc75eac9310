package dev.sluice.rpc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Empty;
import dev.sluice.rpc.LoopbackRpc;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.golden.kinds.Envelope;
import dev.sluice.rpc.golden.kinds.KindsClient;
import dev.sluice.rpc.golden.kinds.KindsRpc;
import dev.sluice.rpc.golden.kinds.KindsService;
import dev.sluice.rpc.golden.shapes.ShapesOuterClass.Shape;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The code generated from the golden protos works over TCP: nested and imported message types, every kind of
 * method, and the fire-and-forget option, whose call completes with nothing coming back while the request still
 * reaches the implementation.
 */
class GeneratedKindsOverTcpTest {

    private final BlockingQueue<String> notified = new LinkedBlockingQueue<>();
    private LoopbackRpc loopback;
    private KindsClient kinds;

    /** Each method answers from its input, so that a test can see the request arrived whole. */
    private final class Kinds implements KindsService {
        @Override
        public Mono<Shape> unary(Envelope.Letter request) {
            return Mono.just(Shape.newBuilder()
                .addCorners(Shape.Corner.newBuilder().setX(request.getBody().length())).build());
        }

        @Override
        public Flux<Envelope.Letter> serverStream(Envelope request) {
            return Flux.just(request.getLetter(), request.getLetter());
        }

        @Override
        public Mono<Envelope> clientStream(Flux<Shape.Corner> requests) {
            return requests.map(Shape.Corner::getX).reduce(0, Integer::sum)
                .map(sum -> Envelope.newBuilder().setNote("sum=" + sum).build());
        }

        @Override
        public Flux<Envelope.Letter> bidiStream(Flux<Envelope.Letter> requests) {
            return requests.map(l -> Envelope.Letter.newBuilder().setBody(l.getBody().toUpperCase()).build());
        }

        @Override
        public Mono<Void> notify(Envelope request) {
            notified.add(request.getNote());
            return Mono.empty();
        }

        @Override
        @SuppressWarnings("deprecation")
        public Mono<Empty> oldStyle(Envelope request) {
            return Mono.just(Empty.getDefaultInstance());
        }
    }

    @BeforeEach
    void start() {
        loopback = new LoopbackRpc(RpcRouter.of(KindsRpc.bind(new Kinds())));
        kinds = KindsRpc.client(loopback.connection);
    }

    @AfterEach
    void stop() {
        loopback.close();
    }

    private static Envelope.Letter letter(String body) {
        return Envelope.Letter.newBuilder().setBody(body).build();
    }

    @Test
    void everyKindOfCall() {
        StepVerifier.create(kinds.unary(letter("four")).map(s -> s.getCorners(0).getX()))
            .expectNext(4).expectComplete().verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(kinds.serverStream(Envelope.newBuilder().setLetter(letter("l")).build())
                .map(Envelope.Letter::getBody))
            .expectNext("l", "l").expectComplete().verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(kinds.clientStream(Flux.range(1, 4).map(i -> Shape.Corner.newBuilder().setX(i).build()))
                .map(Envelope::getNote))
            .expectNext("sum=10").expectComplete().verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(kinds.bidiStream(Flux.just(letter("a"), letter("b"))).map(Envelope.Letter::getBody))
            .expectNext("A", "B").expectComplete().verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void fireAndForgetReachesTheImplementation() throws InterruptedException {
        StepVerifier.create(kinds.notify(Envelope.newBuilder().setNote("sent and forgotten").build()))
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
        assertThat(notified.poll(LoopbackRpc.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("sent and forgotten");
    }
}
