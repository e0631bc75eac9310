package dev.sluice.rpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcStatus;
import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.transport.netty.TcpClientTransport;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The generated Sluice client calls an Echo service written by hand on rsocket-java 1.1.5: the handler reads the
 * route with rsocket-java's codecs and the message with protobuf, and fails in the documented encoding.
 */
class SluiceRpcCallsRsocketJavaTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private CloseableChannel server;
    private Connection connection;
    private EchoClient echo;

    /** Echo's Say and Repeat, by hand, on rsocket-java. */
    private static final class HandWrittenEcho implements RSocket {
        @Override
        public Mono<Payload> requestResponse(Payload payload) {
            String route = JavaRouting.route(payload);
            EchoRequest request = JavaRouting.parseAndRelease(payload, EchoRequest.parser());
            if (!"sluice.echo.v1.Echo/Say".equals(route)) {
                return Mono.error(new ApplicationErrorException("UNIMPLEMENTED: no route " + route));
            }
            if (request.getText().equals("fail")) {
                return Mono.error(new ApplicationErrorException("FAILED_PRECONDITION: asked to fail"));
            }
            if (request.getText().equals("plain")) {
                return Mono.error(new IllegalStateException("a plain rsocket-java failure"));
            }
            return Mono.just(JavaRouting.message(EchoReply.newBuilder().setText(request.getText())
                .setData(request.getData()).build()));
        }

        @Override
        public Flux<Payload> requestStream(Payload payload) {
            String route = JavaRouting.route(payload);
            EchoRequest request = JavaRouting.parseAndRelease(payload, EchoRequest.parser());
            if (!"sluice.echo.v1.Echo/Repeat".equals(route)) {
                return Flux.error(new ApplicationErrorException("UNIMPLEMENTED: no route " + route));
            }
            return Flux.range(0, request.getCount())
                .map(i -> JavaRouting.message(EchoReply.newBuilder().setText(request.getText()).setIndex(i).build()));
        }
    }

    @BeforeEach
    void start() {
        server = RSocketServer.create(SocketAcceptor.with(new HandWrittenEcho()))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        connection = RSocketConnector.create()
            .metadataMimeType("message/x.rsocket.composite-metadata.v0")
            .dataMimeType("application/vnd.google.protobuf")
            .connect(TcpClientTransport.create("127.0.0.1", server.address().getPort()))
            .block(TIMEOUT);
        echo = EchoRpc.client(connection);
    }

    @AfterEach
    void stop() {
        connection.dispose();
        connection.onClose().block(TIMEOUT);
        server.dispose();
        server.onClose().block(TIMEOUT);
    }

    @Test
    void say() {
        StepVerifier.create(echo.say(EchoRequest.newBuilder().setText("to rsocket-java").build())
                .map(EchoReply::getText))
            .expectNext("to rsocket-java")
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void repeatWithRequestN() {
        StepVerifier.create(echo.repeat(EchoRequest.newBuilder().setText("r").setCount(4).build())
                .map(EchoReply::getIndex), 0)
            .thenRequest(1)
            .expectNext(0)
            .thenRequest(3)
            .expectNext(1, 2, 3)
            .expectComplete()
            .verify(TIMEOUT);
    }

    @Test
    void aStatusWrittenByHandIsReadAsThatStatus() {
        StepVerifier.create(echo.say(EchoRequest.newBuilder().setText("fail").build()))
            .expectErrorSatisfies(e -> {
                assertThat(e).isInstanceOf(RpcException.class);
                assertThat(((RpcException) e).status()).isEqualTo(RpcStatus.FAILED_PRECONDITION);
                assertThat(((RpcException) e).description()).isEqualTo("asked to fail");
            })
            .verify(TIMEOUT);
    }

    @Test
    void aPlainApplicationErrorIsUnknownWithItsMessage() {
        StepVerifier.create(echo.say(EchoRequest.newBuilder().setText("plain").build()))
            .expectErrorSatisfies(e -> {
                assertThat(e).isInstanceOf(RpcException.class);
                assertThat(((RpcException) e).status()).isEqualTo(RpcStatus.UNKNOWN);
                assertThat(((RpcException) e).description()).isEqualTo("a plain rsocket-java failure");
            })
            .verify(TIMEOUT);
    }
}
