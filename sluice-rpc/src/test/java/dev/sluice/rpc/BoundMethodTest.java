package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** A service's methods called directly, as another protocol calls them: no RSocket in between. */
class BoundMethodTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String TRACE = "application/x.sluice.trace";

    @SuppressWarnings("unchecked")
    private static <Q extends com.google.protobuf.MessageLite, R extends com.google.protobuf.MessageLite>
        BoundMethod<Q, R> method(RpcService service, RpcMethod<Q, R> method) {
        for (BoundMethod<?, ?> m : service.boundMethods()) {
            if (m.method() == method) {
                return (BoundMethod<Q, R>) m;
            }
        }
        throw new AssertionError(method + " not bound");
    }

    private static EchoRequest text(String text) {
        return EchoRequest.newBuilder().setText(text).build();
    }

    @Test
    void theGeneratedBindingListsEveryMethodInOrderWithTheServiceDescriptor() {
        RpcService service = EchoRpc.bind(new RealEchoService());
        assertThat(service.boundMethods()).extracting(m -> (Object) m.method()).containsExactly(EchoRpc.METHOD_SAY,
            EchoRpc.METHOD_REPEAT, EchoRpc.METHOD_COLLECT, EchoRpc.METHOD_CHAT);
        assertThat(service.descriptor().getFullName()).isEqualTo(EchoRpc.SERVICE_NAME);
        assertThat(service.descriptor().getMethods()).extracting(m -> m.getName())
            .containsExactly("Say", "Repeat", "Collect", "Chat");
    }

    @Test
    void allFourKindsAnswerWithDecodedMessages() {
        RpcService service = EchoRpc.bind(new RealEchoService());
        StepVerifier.create(method(service, EchoRpc.METHOD_SAY).unary(text("hi"), RpcMetadata.EMPTY)
                .map(EchoReply::getText))
            .expectNext("hi").expectComplete().verify(TIMEOUT);
        StepVerifier.create(method(service, EchoRpc.METHOD_REPEAT)
                .serverStreaming(text("r").toBuilder().setCount(3).build(), RpcMetadata.EMPTY)
                .map(EchoReply::getIndex))
            .expectNext(0, 1, 2).expectComplete().verify(TIMEOUT);
        StepVerifier.create(method(service, EchoRpc.METHOD_COLLECT)
                .clientStreaming(Flux.just(text("a"), text("b")), RpcMetadata.EMPTY).map(EchoReply::getText))
            .expectNext("a,b").expectComplete().verify(TIMEOUT);
        StepVerifier.create(method(service, EchoRpc.METHOD_CHAT)
                .bidiStreaming(Flux.just(text("x"), text("y")), RpcMetadata.EMPTY).map(EchoReply::getText))
            .expectNext("x", "y").expectComplete().verify(TIMEOUT);
    }

    @Test
    void aConstantAnswerStaysAConstantEvenWithMetadata() {
        EchoReply reply = EchoReply.newBuilder().setText("now").build();
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> Mono.just(reply)).build();
        RpcMetadata md = RpcMetadata.builder().addUtf8(TRACE, "t").build();
        assertThat(method(service, EchoRpc.METHOD_SAY).unary(text(""), md))
            .isInstanceOf(Fuseable.ScalarCallable.class);
    }

    @Test
    void metadataIsWhatTheImplementationReads() {
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .serverStreaming(EchoRpc.METHOD_REPEAT, q -> RpcMetadata.current()
                .flatMapMany(md -> Flux.just(md.getUtf8(TRACE), String.valueOf(md.entries().size())))
                .map(s -> EchoReply.newBuilder().setText(s).build()))
            .build();
        RpcMetadata md = RpcMetadata.builder().addUtf8(TRACE, "trace-9").build();
        StepVerifier.create(method(service, EchoRpc.METHOD_REPEAT).serverStreaming(text(""), md)
                .map(EchoReply::getText))
            .expectNext("trace-9", "1").expectComplete().verify(TIMEOUT);
    }

    @Test
    void deferredMetadataIsReadOnlyWhenTheImplementationLooks() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        RpcMetadata deferred = RpcMetadata.deferred(() -> {
            reads.incrementAndGet();
            return RpcMetadata.builder().addUtf8(TRACE, "late").build();
        });
        EchoReply constant = EchoReply.newBuilder().setText("now").build();
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> Mono.just(constant))
            .serverStreaming(EchoRpc.METHOD_REPEAT, q -> RpcMetadata.current()
                .map(md -> EchoReply.newBuilder().setText(md.getUtf8(TRACE)).build()).flux())
            .build();
        StepVerifier.create(method(service, EchoRpc.METHOD_SAY).unary(text(""), deferred))
            .expectNext(constant).expectComplete().verify(TIMEOUT);
        assertThat(reads.get()).isZero();
        StepVerifier.create(method(service, EchoRpc.METHOD_REPEAT).serverStreaming(text(""), deferred)
                .map(EchoReply::getText))
            .expectNext("late").expectComplete().verify(TIMEOUT);
        assertThat(reads.get()).isEqualTo(1);
        assertThat(deferred.entries()).hasSize(1);
        assertThat(reads.get()).isEqualTo(1);
    }

    @Test
    void aThrowingOrNullHandlerIsAnErrorSignalNotAThrow() {
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, q -> {
                throw new RpcException(RpcStatus.NOT_FOUND, "nope");
            })
            .serverStreaming(EchoRpc.METHOD_REPEAT, q -> null)
            .build();
        StepVerifier.create(method(service, EchoRpc.METHOD_SAY).unary(text(""), RpcMetadata.EMPTY))
            .expectErrorSatisfies(e -> assertThat(((RpcException) e).status()).isEqualTo(RpcStatus.NOT_FOUND))
            .verify(TIMEOUT);
        StepVerifier.create(method(service, EchoRpc.METHOD_REPEAT).serverStreaming(text(""), RpcMetadata.EMPTY))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RpcException.class)
                .hasMessage("INTERNAL: the handler of sluice.echo.v1.Echo/Repeat returned null"))
            .verify(TIMEOUT);
    }

    @Test
    void callingAMethodAsAnotherKindIsRefused() {
        RpcService service = EchoRpc.bind(new RealEchoService());
        BoundMethod<EchoRequest, EchoReply> say = method(service, EchoRpc.METHOD_SAY);
        assertThatThrownBy(() -> say.serverStreaming(text(""), RpcMetadata.EMPTY))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("sluice.echo.v1.Echo/Say is UNARY, called as SERVER_STREAMING");
        assertThatThrownBy(() -> say.bidiStreaming(Flux.empty(), RpcMetadata.EMPTY))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDescriptorOfAnotherServiceIsRefused() {
        RpcService echo = EchoRpc.bind(new RealEchoService());
        assertThatThrownBy(() -> RpcService.builder("other.Service").descriptor(echo.descriptor()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("the descriptor of other.Service expected, got sluice.echo.v1.Echo");
        assertThat(RpcService.builder(EchoRpc.SERVICE_NAME).build().descriptor()).isNull();
        assertThat(List.of(echo.boundMethods().get(0).toString())).containsExactly("sluice.echo.v1.Echo/Say (UNARY)");
    }
}
