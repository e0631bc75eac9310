package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A grpc-java client, with stubs from protoc-gen-grpc-java, calls the four methods of the Echo service bridged. */
class EchoOverGrpcTest {

    private GrpcLoopback loopback;
    private EchoGrpc.EchoBlockingStub blocking;
    private EchoGrpc.EchoStub async;

    @BeforeEach
    void start() {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(new RealEchoService())));
        blocking = EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        async = EchoGrpc.newStub(loopback.channel);
    }

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    private static EchoRequest request(String text) {
        return EchoRequest.newBuilder().setText(text).build();
    }

    @Test
    void sayEchoesTextAndData() {
        EchoReply reply = blocking.say(request("hello").toBuilder().setData(ByteString.copyFromUtf8("bytes")).build());
        assertThat(reply.getText()).isEqualTo("hello");
        assertThat(reply.getData().toStringUtf8()).isEqualTo("bytes");
        assertThat(reply.getIndex()).isZero();
    }

    @Test
    void repeatSendsCountReplies() {
        List<Integer> indexes = new ArrayList<>();
        blocking.repeat(request("r").toBuilder().setCount(5).build()).forEachRemaining(r -> indexes.add(r.getIndex()));
        assertThat(indexes).containsExactly(0, 1, 2, 3, 4);
        assertThat(blocking.repeat(request("none")).hasNext()).isFalse();
    }

    @Test
    void collectJoinsTheTextsIncludingAStreamOfNone() throws Exception {
        assertThat(collect(List.of("a", "b", "c")))
            .satisfies(r -> assertThat(r.getText()).isEqualTo("a,b,c"))
            .satisfies(r -> assertThat(r.getIndex()).isEqualTo(3));
        assertThat(collect(List.of()))
            .satisfies(r -> assertThat(r.getText()).isEmpty())
            .satisfies(r -> assertThat(r.getIndex()).isZero());
    }

    @Test
    void chatAnswersEachRequestInOrder() throws Exception {
        Replies replies = new Replies();
        StreamObserver<EchoRequest> requests = async.chat(replies);
        for (String text : List.of("x", "y", "z")) {
            requests.onNext(request(text));
        }
        requests.onCompleted();
        List<EchoReply> received = replies.await(GrpcLoopback.TIMEOUT);
        assertThat(received).extracting(EchoReply::getText).containsExactly("x", "y", "z");
        assertThat(received).extracting(EchoReply::getIndex).containsExactly(0, 1, 2);
    }

    @Test
    void aFailureArrivesWithItsStatusAndMessage() {
        assertThatThrownBy(() -> blocking.say(request("fail:NOT_FOUND:nope")))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                assertThat(e.getStatus().getDescription()).isEqualTo("nope");
            });
        assertThatThrownBy(() -> blocking.say(request("fail:PERMISSION_DENIED:")))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                assertThat(e.getStatus().getDescription()).isNull();
            });
        assertThatThrownBy(() -> blocking.say(request("fail:BOGUS:x")))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }

    private EchoReply collect(List<String> texts) throws Exception {
        Replies reply = new Replies();
        StreamObserver<EchoRequest> requests = async.collect(reply);
        for (String text : texts) {
            requests.onNext(request(text));
        }
        requests.onCompleted();
        List<EchoReply> received = reply.await(GrpcLoopback.TIMEOUT);
        assertThat(received).hasSize(1);
        return received.get(0);
    }
}
