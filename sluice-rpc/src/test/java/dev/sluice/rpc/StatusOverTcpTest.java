package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** A handler's failure reaches the generated client as an {@link RpcException} with the status it chose. */
class StatusOverTcpTest {

    private LoopbackRpc loopback;

    @AfterEach
    void stop() {
        loopback.close();
    }

    private EchoClient serve(RpcService service) {
        loopback = new LoopbackRpc(RpcRouter.of(service));
        return EchoRpc.client(loopback.connection);
    }

    private static EchoRequest request(String text) {
        return EchoRequest.newBuilder().setText(text).build();
    }

    private static Consumer<Throwable> status(RpcStatus status, String description) {
        return e -> {
            assertThat(e).isInstanceOf(RpcException.class);
            assertThat(((RpcException) e).status()).isEqualTo(status);
            assertThat(((RpcException) e).description()).isEqualTo(description);
        };
    }

    @Test
    void sayFailsWithTheStatusItWasAskedFor() {
        EchoClient echo = serve(EchoRpc.bind(new RealEchoService()));
        StepVerifier.create(echo.say(request("fail:NOT_FOUND:nope")))
            .expectErrorSatisfies(status(RpcStatus.NOT_FOUND, "nope"))
            .verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(echo.say(request("fail:UNAUTHENTICATED:who are you")))
            .expectErrorSatisfies(status(RpcStatus.UNAUTHENTICATED, "who are you"))
            .verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(echo.say(request("fail:NO_SUCH_CODE:x")))
            .expectErrorSatisfies(status(RpcStatus.INVALID_ARGUMENT,
                "Say asked to fail with an unknown status: NO_SUCH_CODE"))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void theWireCarriesTheStatusNameInAnApplicationError() {
        serve(EchoRpc.bind(new RealEchoService()));
        StepVerifier.create(loopback.connection.requestResponse(RawRequests.routed("sluice.echo.v1.Echo/Say",
                request("fail:PERMISSION_DENIED:not yours").toByteArray())))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("PERMISSION_DENIED: not yours"))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void anExceptionThatIsNotAStatusIsUnknown() {
        EchoClient echo = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, r -> {
                throw new IllegalStateException("thrown, not signalled");
            })
            .serverStreaming(EchoRpc.METHOD_REPEAT, r -> Flux.<EchoReply>just(EchoReply.getDefaultInstance())
                .concatWith(Mono.error(new IllegalArgumentException("after one"))))
            .build());
        StepVerifier.create(echo.say(request("x")))
            .expectErrorSatisfies(status(RpcStatus.UNKNOWN, "thrown, not signalled"))
            .verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(echo.repeat(request("x")))
            .expectNext(EchoReply.getDefaultInstance())
            .expectErrorSatisfies(status(RpcStatus.UNKNOWN, "after one"))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void aHandlerReturningNullIsInternal() {
        EchoClient echo = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, r -> null)
            .build());
        StepVerifier.create(echo.say(request("x")))
            .expectErrorSatisfies(status(RpcStatus.INTERNAL, "the handler of sluice.echo.v1.Echo/Say returned null"))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void aMethodTheServiceDoesNotBindIsUnimplementedForTheClient() {
        EchoClient echo = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, r -> Mono.just(EchoReply.getDefaultInstance()))
            .build());
        StepVerifier.create(echo.collect(Flux.just(request("a"))))
            .expectErrorSatisfies(status(RpcStatus.UNIMPLEMENTED, "unknown method Collect of service "
                + "sluice.echo.v1.Echo"))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void streamingHandlersFailWithTheirStatusToo() {
        EchoClient echo = serve(RpcService.builder(EchoRpc.SERVICE_NAME)
            .clientStreaming(EchoRpc.METHOD_COLLECT, requests -> requests.then(
                Mono.error(new RpcException(RpcStatus.RESOURCE_EXHAUSTED, "too many"))))
            .bidiStreaming(EchoRpc.METHOD_CHAT, requests -> Flux.error(new RpcException(RpcStatus.ABORTED, "")))
            .build());
        StepVerifier.create(echo.collect(Flux.just(request("a"), request("b"))))
            .expectErrorSatisfies(status(RpcStatus.RESOURCE_EXHAUSTED, "too many"))
            .verify(LoopbackRpc.TIMEOUT);
        StepVerifier.create(echo.chat(Flux.just(request("a")).concatWith(Flux.never())))
            .expectErrorSatisfies(status(RpcStatus.ABORTED, ""))
            .verify(LoopbackRpc.TIMEOUT);
    }
}
