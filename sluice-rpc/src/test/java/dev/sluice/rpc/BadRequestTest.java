package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * Requests the router cannot serve, sent raw over TCP: each gets a precise status in an APPLICATION_ERROR, the
 * connection keeps serving, and nothing leaks (the testkit fails a test on a leak report).
 */
class BadRequestTest {

    private static final String SAY = "sluice.echo.v1.Echo/Say";
    private static final String COLLECT = "sluice.echo.v1.Echo/Collect";

    private LoopbackRpc loopback;

    @BeforeEach
    void start() {
        loopback = new LoopbackRpc(RpcRouter.of(EchoRpc.bind(new RealEchoService())));
    }

    @AfterEach
    void stop() {
        // Whatever happened before, the connection still serves a good call.
        StepVerifier.create(EchoRpc.client(loopback.connection).say(EchoRequest.newBuilder().setText("ok").build())
                .map(EchoReply::getText))
            .expectNext("ok")
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
        loopback.close();
    }

    private void expectError(Publisher<Payload> answer, String message) {
        StepVerifier.create(answer)
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage(message))
            .verify(LoopbackRpc.TIMEOUT);
    }

    private void expectErrorStartingWith(Publisher<Payload> answer, String prefix) {
        StepVerifier.create(answer)
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith(prefix))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void requestWithoutMetadataIsInvalidArgument() {
        expectError(loopback.connection.requestResponse(Payload.create(new byte[0])),
            "INVALID_ARGUMENT: missing routing metadata: REQUEST_RESPONSE carried no metadata");
    }

    @Test
    void compositeMetadataWithoutRoutingIsInvalidArgument() {
        ByteBuf md = Unpooled.buffer();
        CompositeMetadata.addEntry(md, "application/x.trace", Unpooled.copiedBuffer("t", StandardCharsets.UTF_8));
        expectError(loopback.connection.requestResponse(Payload.create(Unpooled.EMPTY_BUFFER, md)),
            "INVALID_ARGUMENT: missing routing metadata: no message/x.rsocket.routing.v0 entry with a tag in the"
                + " composite metadata");
    }

    @Test
    void malformedCompositeMetadataIsInvalidArgument() {
        // A routing entry (0x80 | 0x7E) whose 24-bit length is cut short.
        ByteBuf md = Unpooled.wrappedBuffer(new byte[] {(byte) 0xFE, 0x00});
        expectErrorStartingWith(loopback.connection.requestResponse(Payload.create(Unpooled.EMPTY_BUFFER, md)),
            "INVALID_ARGUMENT: malformed composite metadata: composite metadata entry at index 0");
    }

    @Test
    void plainTextMetadataIsInvalidArgument() {
        expectErrorStartingWith(loopback.connection.requestResponse(Payload.create("", SAY)), "INVALID_ARGUMENT: ");
    }

    @Test
    void unknownServiceIsUnimplemented() {
        expectError(loopback.connection.requestResponse(RawRequests.routed("nope.v1.Nope/Say", new byte[0])),
            "UNIMPLEMENTED: unknown service in route nope.v1.Nope/Say");
    }

    @Test
    void unknownMethodIsUnimplemented() {
        expectError(loopback.connection.requestResponse(RawRequests.routed("sluice.echo.v1.Echo/Shout",
                new byte[0])),
            "UNIMPLEMENTED: unknown method Shout of service sluice.echo.v1.Echo");
    }

    @Test
    void undecodableRequestIsInvalidArgument() {
        expectErrorStartingWith(loopback.connection.requestResponse(RawRequests.routed(SAY,
                RawRequests.truncatedMessage())),
            "INVALID_ARGUMENT: cannot decode the request of sluice.echo.v1.Echo/Say: ");
    }

    @Test
    void wrongInteractionIsUnimplemented() {
        expectError(loopback.connection.requestStream(RawRequests.routed(SAY, new byte[0])),
            "UNIMPLEMENTED: sluice.echo.v1.Echo/Say is UNARY, called with REQUEST_STREAM");
        expectError(loopback.connection.requestResponse(RawRequests.routed("sluice.echo.v1.Echo/Repeat",
                new byte[0])),
            "UNIMPLEMENTED: sluice.echo.v1.Echo/Repeat is SERVER_STREAMING, called with REQUEST_RESPONSE");
        expectError(loopback.connection.requestChannel(Flux.just(RawRequests.routed(SAY, new byte[0]))),
            "UNIMPLEMENTED: sluice.echo.v1.Echo/Say is UNARY, called with REQUEST_CHANNEL");
    }

    @Test
    void undecodableStreamRequestIsInvalidArgument() {
        expectErrorStartingWith(loopback.connection.requestStream(RawRequests.routed("sluice.echo.v1.Echo/Repeat",
                RawRequests.truncatedMessage())),
            "INVALID_ARGUMENT: cannot decode the request of sluice.echo.v1.Echo/Repeat: ");
    }

    @Test
    void channelWithoutMetadataIsInvalidArgument() {
        expectError(loopback.connection.requestChannel(Flux.just(Payload.create(new byte[0]))),
            "INVALID_ARGUMENT: missing routing metadata: REQUEST_CHANNEL carried no metadata");
    }

    @Test
    void channelToAnUnknownMethodIsUnimplemented() {
        expectError(loopback.connection.requestChannel(Flux.just(
                RawRequests.routed("sluice.echo.v1.Echo/Gather", new byte[0]),
                Payload.create(new byte[0]))),
            "UNIMPLEMENTED: unknown method Gather of service sluice.echo.v1.Echo");
    }

    @Test
    void channelWithAnUndecodableFirstRequestIsInvalidArgument() {
        expectErrorStartingWith(loopback.connection.requestChannel(Flux.just(
                RawRequests.routed(COLLECT, RawRequests.truncatedMessage()))),
            "INVALID_ARGUMENT: cannot decode the request of sluice.echo.v1.Echo/Collect: ");
    }

    @Test
    void channelWithAnUndecodableLaterRequestIsInvalidArgument() {
        Flux<Payload> requests = Flux.just(
                RawRequests.routed("sluice.echo.v1.Echo/Chat", EchoRequest.newBuilder().setText("a").build()
                    .toByteArray()),
                Payload.create(RawRequests.truncatedMessage()))
            .concatWith(Flux.never());
        // Chat answers the good first request before it reads the bad second one.
        StepVerifier.create(loopback.connection.requestChannel(requests))
            .consumeNextWith(Payload::release)
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("INVALID_ARGUMENT: cannot decode the request of sluice.echo.v1.Echo/Chat: "))
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void fireAndForgetToAnUnknownMethodIsDroppedWithoutHarm() {
        StepVerifier.create(loopback.connection.fireAndForget(RawRequests.routed("sluice.echo.v1.Echo/Nope",
                new byte[0])))
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }
}
