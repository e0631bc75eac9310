package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.EchoService;
import dev.sluice.rpc.echo.v1.RealEchoService;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A gRPC deadline or a client's cancellation reaches the implementation as the cancellation of its publisher. */
class CancellationTest {

    private final AtomicLong emitted = new AtomicLong();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private GrpcLoopback loopback;

    /** The real Echo service, counting what Repeat emits and seeing Repeat's and Chat's cancellation. */
    private final EchoService observed = new EchoService() {
        private final RealEchoService real = new RealEchoService();

        @Override
        public Mono<EchoReply> say(EchoRequest request) {
            return Mono.<EchoReply>never().doOnCancel(cancelled::countDown);
        }

        @Override
        public Flux<EchoReply> repeat(EchoRequest request) {
            return real.repeat(request).doOnNext(r -> emitted.incrementAndGet()).doOnCancel(cancelled::countDown);
        }

        @Override
        public Mono<EchoReply> collect(Flux<EchoRequest> requests) {
            return real.collect(requests);
        }

        @Override
        public Flux<EchoReply> chat(Flux<EchoRequest> requests) {
            return real.chat(requests).doOnCancel(cancelled::countDown);
        }
    };

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    @Test
    void aDeadlineShorterThanARepeatOfAMillionCancelsItOnTheServer() throws InterruptedException {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(observed)));
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(300, TimeUnit.MILLISECONDS);
        Iterator<EchoReply> replies = stub.repeat(EchoRequest.newBuilder().setText("r").setCount(1_000_000).build());
        // Read one reply, then stop reading: the deadline passes with the stream far from done.
        assertThat(replies.next().getIndex()).isZero();
        assertThat(cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(emitted.get()).isLessThan(1_000_000);
        assertThatThrownBy(() -> {
            while (replies.hasNext()) {
                replies.next();
            }
        }).isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    }

    @Test
    void aDeadlineOnAUnaryCallCancelsAnAnswerThatNeverCame() throws InterruptedException {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(observed)));
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(200, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> stub.say(EchoRequest.getDefaultInstance()))
            .isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aClientCancellingABidirectionalCallCancelsTheImplementation() throws Exception {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(observed)));
        Context.CancellableContext context = Context.current().withCancellation();
        CountDownLatch firstReply = new CountDownLatch(1);
        StreamObserver<EchoRequest> requests = context.call(() -> EchoGrpc.newStub(loopback.channel).chat(
            new StreamObserver<>() {
                @Override
                public void onNext(EchoReply value) {
                    firstReply.countDown();
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                }
            }));
        requests.onNext(EchoRequest.newBuilder().setText("one").build());
        assertThat(firstReply.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        context.cancel(null);
        assertThat(cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
}
