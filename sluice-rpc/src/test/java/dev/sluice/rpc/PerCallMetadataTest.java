package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Further composite entries travel with a call and reach the implementation through {@link RpcMetadata}. */
class PerCallMetadataTest {

    private static final String TRACE = "application/x.sluice.trace";

    private LoopbackRpc loopback;
    private EchoClient echo;

    @BeforeEach
    void start() {
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, r -> RpcMetadata.current().map(PerCallMetadataTest::describe))
            .bidiStreaming(EchoRpc.METHOD_CHAT, requests -> requests.flatMap(q -> RpcMetadata.current()
                .map(md -> EchoReply.newBuilder().setText(q.getText() + "@" + md.getUtf8(TRACE)).build())))
            .build();
        loopback = new LoopbackRpc(RpcRouter.of(service));
        echo = EchoRpc.client(loopback.connection);
    }

    @AfterEach
    void stop() {
        loopback.close();
    }

    private static EchoReply describe(RpcMetadata md) {
        StringBuilder text = new StringBuilder();
        for (RpcMetadata.Entry e : md.entries()) {
            text.append(e.mimeType()).append('=').append(new String(e.content(), StandardCharsets.UTF_8)).append(';');
        }
        return EchoReply.newBuilder().setText(text.toString()).build();
    }

    @Test
    void entriesReachTheImplementationInOrder() {
        RpcMetadata md = RpcMetadata.builder()
            .addUtf8(TRACE, "trace-7")
            .addUtf8("message/x.rsocket.authentication.v0", "token")
            .build();
        StepVerifier.create(echo.say(EchoRequest.getDefaultInstance(), md).map(EchoReply::getText))
            .expectNext(TRACE + "=trace-7;message/x.rsocket.authentication.v0=token;")
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void aCallWithoutEntriesSeesEmptyMetadata() {
        StepVerifier.create(echo.say(EchoRequest.getDefaultInstance()).map(EchoReply::getText))
            .expectNext("")
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void aChannelCarriesItsMetadataInTheFirstFrame() {
        RpcMetadata md = RpcMetadata.builder().addUtf8(TRACE, "t1").build();
        Flux<EchoRequest> requests = Flux.just("a", "b").map(t -> EchoRequest.newBuilder().setText(t).build());
        StepVerifier.create(echo.chat(requests, md).map(EchoReply::getText))
            .expectNext("a@t1", "b@t1")
            .expectComplete()
            .verify(LoopbackRpc.TIMEOUT);
    }

    @Test
    void theRouteIsNotUserMetadata() {
        assertThatThrownBy(() -> RpcMetadata.builder().addUtf8("message/x.rsocket.routing.v0", "x"))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
