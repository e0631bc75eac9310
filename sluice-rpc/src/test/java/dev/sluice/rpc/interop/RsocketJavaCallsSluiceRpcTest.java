package dev.sluice.rpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import dev.sluice.transport.netty.TcpServerTransport;
import io.rsocket.RSocket;
import io.rsocket.core.RSocketConnector;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.client.TcpClientTransport;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * rsocket-java 1.1.5, with nothing of Sluice but the wire format (composite metadata with a routing entry, protobuf
 * data), calls the Echo service on a Sluice RPC server over TCP.
 */
class RsocketJavaCallsSluiceRpcTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private CloseableServer server;
    private RSocket client;

    @BeforeEach
    void start() {
        server = RSocketServer.create(RpcRouter.of(EchoRpc.bind(new RealEchoService())).acceptor())
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        client = RSocketConnector.create()
            .metadataMimeType(WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString())
            .dataMimeType(WellKnownMimeType.APPLICATION_PROTOBUF.getString())
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }

    @AfterEach
    void stop() {
        client.dispose();
        client.onClose().block(TIMEOUT);
        server.dispose();
        server.onClose().block(TIMEOUT);
    }

    @Test
    void say() {
        EchoRequest request = EchoRequest.newBuilder().setText("from rsocket-java")
            .setData(ByteString.copyFrom(new byte[] {1, 2, 3})).build();
        StepVerifier.create(client.requestResponse(JavaRouting.call("sluice.echo.v1.Echo/Say", request))
                .map(p -> JavaRouting.parseAndRelease(p, EchoReply.parser())))
            .expectNext(EchoReply.newBuilder().setText("from rsocket-java")
                .setData(ByteString.copyFrom(new byte[] {1, 2, 3})).build())
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void sayFailureArrivesAsApplicationErrorWithTheStatus() {
        EchoRequest request = EchoRequest.newBuilder().setText("fail:NOT_FOUND:nope").build();
        StepVerifier.create(client.requestResponse(JavaRouting.call("sluice.echo.v1.Echo/Say", request)))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("NOT_FOUND: nope"))
            .verify(TIMEOUT);
    }

    @Test
    void repeatWithRequestN() {
        EchoRequest request = EchoRequest.newBuilder().setText("r").setCount(6).build();
        StepVerifier.create(client.requestStream(JavaRouting.call("sluice.echo.v1.Echo/Repeat", request))
                .map(p -> JavaRouting.parseAndRelease(p, EchoReply.parser()).getIndex()), 0)
            .thenRequest(2)
            .expectNext(0, 1)
            .thenRequest(10)
            .expectNext(2, 3, 4, 5)
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void collectOverAChannelWhoseFirstFrameCarriesTheRoute() {
        Flux<io.rsocket.Payload> requests = Flux.just("a", "b", "c")
            .map(t -> EchoRequest.newBuilder().setText(t).build())
            .index()
            .map(t -> t.getT1() == 0 ? JavaRouting.call("sluice.echo.v1.Echo/Collect", t.getT2())
                : JavaRouting.message(t.getT2()));
        StepVerifier.create(client.requestChannel(requests)
                .map(p -> JavaRouting.parseAndRelease(p, EchoReply.parser())))
            .expectNext(EchoReply.newBuilder().setText("a,b,c").setIndex(3).build())
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void unknownMethodIsUnimplemented() {
        StepVerifier.create(client.requestResponse(JavaRouting.call("sluice.echo.v1.Echo/Whisper",
                EchoRequest.getDefaultInstance())))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("UNIMPLEMENTED: unknown method Whisper of service sluice.echo.v1.Echo"))
            .verify(TIMEOUT);
    }
}
