package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A gRPC deadline or a client's cancellation reaches the implementation as the cancellation of its publisher. */
class CancellationTest {

    private final ObservedEcho echo = new ObservedEcho();
    private GrpcLoopback loopback;

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    @Test
    void aDeadlineShorterThanARepeatOfAMillionCancelsItOnTheServer() throws InterruptedException {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(echo)));
        // Long enough for the first reply on a loaded CI machine (300 ms was not, once); the stream still cannot
        // finish in time, as nothing reads past that reply and flow control stops the server.
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(3, TimeUnit.SECONDS);
        Iterator<EchoReply> replies = stub.repeat(EchoRequest.newBuilder().setText("r").setCount(1_000_000).build());
        // Read one reply, then stop reading: the deadline passes with the stream far from done.
        assertThat(replies.next().getIndex()).isZero();
        assertThat(echo.cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(echo.repeated.get()).isLessThan(1_000_000);
        assertThatThrownBy(() -> {
            while (replies.hasNext()) {
                replies.next();
            }
        }).isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    }

    @Test
    void aDeadlineOnAUnaryCallCancelsAnAnswerThatNeverCame() throws InterruptedException {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(echo)));
        EchoGrpc.EchoBlockingStub stub = EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(200, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> stub.say(EchoRequest.newBuilder().setText("never").build()))
            .isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(echo.cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aClientCancellingABidirectionalCallCancelsTheImplementation() throws Exception {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(echo)));
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
        assertThat(echo.cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
}
