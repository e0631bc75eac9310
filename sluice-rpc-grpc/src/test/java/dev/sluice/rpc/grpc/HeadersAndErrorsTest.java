package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Empty;
import dev.sluice.rpc.RpcMetadata;
import dev.sluice.rpc.RpcMethod;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.grpc.internal.ProtoMarshallers;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Request headers reach the implementation as {@link RpcMetadata}; each way a call can go wrong ends it with a
 * precise status, never a hang; a fire-and-forget method is the unary call its {@code .proto} declares.
 */
class HeadersAndErrorsTest {

    private static final RpcMethod<EchoRequest, Empty> FIRE = RpcMethod.create(RpcMethod.Kind.FIRE_AND_FORGET,
        "sluice.echo.v1.Echo/Fire", EchoRequest.parser(), Empty.parser());
    private static final MethodDescriptor<EchoRequest, Empty> FIRE_GRPC =
        MethodDescriptor.<EchoRequest, Empty>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName("sluice.echo.v1.Echo/Fire")
        .setRequestMarshaller(ProtoMarshallers.of(EchoRequest.parser()))
        .setResponseMarshaller(ProtoMarshallers.of(Empty.parser()))
        .build();

    private GrpcLoopback loopback;

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    private EchoGrpc.EchoBlockingStub serve(RpcService service) {
        loopback = new GrpcLoopback(GrpcBridge.service(service));
        return EchoGrpc.newBlockingStub(loopback.channel)
            .withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Mono<EchoReply> describeMetadata() {
        return RpcMetadata.current().map(md -> {
            StringBuilder text = new StringBuilder();
            for (RpcMetadata.Entry e : md.entries()) {
                text.append(e.mimeType()).append('=').append(new String(e.content(), StandardCharsets.ISO_8859_1))
                    .append(';');
            }
            return EchoReply.newBuilder().setText(text.toString()).build();
        });
    }

    @Test
    void requestHeadersAreTheCallsMetadataWithoutGrpcsOwn() {
        EchoGrpc.EchoBlockingStub stub = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> describeMetadata())
            .build());
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("x-trace-id", Metadata.ASCII_STRING_MARSHALLER), "trace-7");
        headers.put(Metadata.Key.of("x-tag", Metadata.ASCII_STRING_MARSHALLER), "a");
        headers.put(Metadata.Key.of("x-tag", Metadata.ASCII_STRING_MARSHALLER), "b");
        headers.put(Metadata.Key.of("x-raw-bin", Metadata.BINARY_BYTE_MARSHALLER), new byte[] {1, 2, (byte) 0xff});
        EchoReply reply = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
            .say(EchoRequest.getDefaultInstance());
        assertThat(reply.getText().split(";")).containsExactlyInAnyOrder("x-trace-id=trace-7", "x-tag=a", "x-tag=b",
            "x-raw-bin=\u0001\u0002\u00ff");
        assertThat(stub.say(EchoRequest.getDefaultInstance()).getText()).isEmpty();
    }

    @Test
    void anyOtherFailureIsUnknownWithItsMessage() {
        EchoGrpc.EchoBlockingStub stub = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> Mono.error(new IllegalStateException("disk full")))
            .serverStreaming(EchoRpc.METHOD_REPEAT, q -> Flux.concat(
                Flux.just(EchoReply.newBuilder().setIndex(7).build()), Flux.error(new ArithmeticException("late"))))
            .build());
        assertThatThrownBy(() -> stub.say(EchoRequest.getDefaultInstance()))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
                assertThat(e.getStatus().getDescription()).isEqualTo("disk full");
            });
        var replies = stub.repeat(EchoRequest.getDefaultInstance());
        assertThat(replies.next().getIndex()).isEqualTo(7);
        assertThatThrownBy(replies::hasNext)
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
                assertThat(e.getStatus().getDescription()).isEqualTo("late");
            });
    }

    @Test
    void aUnaryHandlerThatCompletesEmptyOrReturnsNullIsInternal() {
        EchoGrpc.EchoBlockingStub stub = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> q.getText().isEmpty() ? Mono.empty() : null)
            .build());
        assertThatThrownBy(() -> stub.say(EchoRequest.getDefaultInstance()))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
                assertThat(e.getStatus().getDescription())
                    .isEqualTo("the handler of sluice.echo.v1.Echo/Say completed without a response");
            });
        assertThatThrownBy(() -> stub.say(EchoRequest.newBuilder().setText("x").build()))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
                assertThat(e.getStatus().getDescription())
                    .isEqualTo("the handler of sluice.echo.v1.Echo/Say returned null");
            });
    }

    @Test
    void aMethodTheServiceDoesNotBindIsUnimplemented() {
        EchoGrpc.EchoBlockingStub stub = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> Mono.just(EchoReply.getDefaultInstance()))
            .build());
        assertThatThrownBy(() -> stub.repeat(EchoRequest.getDefaultInstance()).hasNext())
            .isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
    }

    @Test
    void aFireAndForgetMethodAnswersEmptyOnceItsHandlerCompletes() throws Exception {
        CompletableFuture<String> fired = new CompletableFuture<>();
        serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .fireAndForget(FIRE, q -> Mono.fromRunnable(() -> fired.complete(q.getText())))
            .build());
        Empty answer = ClientCalls.blockingUnaryCall(loopback.channel, FIRE_GRPC, CallOptions.DEFAULT
            .withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
            EchoRequest.newBuilder().setText("go").build());
        assertThat(answer).isEqualTo(Empty.getDefaultInstance());
        assertThat(fired.get(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("go");
    }

    @Test
    void twoRequestsOrNoneOnAUnaryCallAreRefusedWithoutCallingTheHandler() throws InterruptedException {
        CountDownLatch called = new CountDownLatch(1);
        serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> {
                called.countDown();
                return Mono.just(EchoReply.getDefaultInstance());
            })
            .build());
        // grpc-java's server refuses a second request of a unary call itself, before the bridge sees the call's
        // messages: the client sees its RST_STREAM (CANCELLED) or its INTERNAL "Too many requests".
        assertThat(rawUnary(2).getCode()).isIn(Status.Code.INTERNAL, Status.Code.CANCELLED);
        assertThat(rawUnary(0)).satisfies(s -> {
            assertThat(s.getCode()).isEqualTo(Status.Code.INTERNAL);
            assertThat(s.getDescription()).isEqualTo("half-closed without a request for sluice.echo.v1.Echo/Say");
        });
        assertThat(called.getCount()).isEqualTo(1);
    }

    /** A unary Say sending {@code requests} messages, as no stub would: the status it ends with. */
    private Status rawUnary(int requests) throws InterruptedException {
        ClientCall<EchoRequest, EchoReply> call = loopback.channel.newCall(EchoGrpc.getSayMethod(),
            CallOptions.DEFAULT.withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        AtomicReference<Status> closed = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.set(status);
                done.countDown();
            }
        }, new Metadata());
        call.request(2);
        for (int i = 0; i < requests; i++) {
            call.sendMessage(EchoRequest.getDefaultInstance());
        }
        call.halfClose();
        assertThat(done.await(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        return closed.get();
    }
}
