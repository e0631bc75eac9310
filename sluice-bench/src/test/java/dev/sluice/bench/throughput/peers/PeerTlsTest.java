package dev.sluice.bench.throughput.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.bench.throughput.internal.BenchPki;
import dev.sluice.bench.throughput.internal.ChildOptions;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketConnector;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.DefaultPayload;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The peers' TLS in the benchmark, on loopback with the certificates {@link BenchPki} makes for a run: rsocket-java
 * and grpc-java each answer a request over TLS, and refuse a plaintext client, so the TLS cells do measure TLS.
 */
class PeerTlsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path certificates;

    @BeforeAll
    static void pki() throws IOException {
        BenchPki.write(certificates);
    }

    private static ChildOptions options(String transport, int port) {
        return transport.equals("tls")
            ? ChildOptions.parse(new String[] {"--transport", "tls", "--tls", certificates.toString(), "--port",
                Integer.toString(port)})
            : ChildOptions.parse(new String[] {"--port", Integer.toString(port)});
    }

    @Test
    void rsocketJavaAnswersOverTlsAndRefusesPlaintext() throws Exception {
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                return Mono.just(payload);
            }
        };
        CloseableChannel server = RSocketServer.create(SocketAcceptor.with(echo))
            .bind(TcpServerTransport.create(RSocketJavaServer.tcp(options("tls", 0))))
            .block(TIMEOUT);
        try {
            int port = server.address().getPort();
            RSocket client = RSocketConnector.create()
                .connect(TcpClientTransport.create(RSocketJavaClient.tcp(options("tls", port))))
                .block(TIMEOUT);
            try {
                StepVerifier.create(client.requestResponse(DefaultPayload.create("over tls"))
                        .map(Payload::getDataUtf8))
                    .expectNext("over tls")
                    .expectComplete()
                    .verify(TIMEOUT);
            } finally {
                client.dispose();
            }
            // A plaintext client's SETUP is not a TLS record: the server closes the connection, nothing is answered.
            RSocket plain = RSocketConnector.create()
                .connect(TcpClientTransport.create(RSocketJavaClient.tcp(options("tcp", port))))
                .block(TIMEOUT);
            try {
                StepVerifier.create(plain.requestResponse(DefaultPayload.create("in clear")))
                    .expectError()
                    .verify(TIMEOUT);
            } finally {
                plain.dispose();
            }
        } finally {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }

    @Test
    void grpcJavaAnswersOverTlsAndRefusesPlaintext() throws Exception {
        GrpcMessages<byte[]> m = GrpcMessages.BYTES;
        ServerServiceDefinition service = ServerServiceDefinition.builder(m.service())
            .addMethod(m.unary(), ServerCalls.asyncUnaryCall((request, observer) -> {
                observer.onNext(request);
                observer.onCompleted();
            }))
            .build();
        Server server = GrpcServer.secure(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(service), options("tls", 0)).build().start();
        ManagedChannel tls = null;
        ManagedChannel plain = null;
        try {
            tls = GrpcClient.secure(NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()),
                options("tls", server.getPort())).build();
            byte[] answer = ClientCalls.blockingUnaryCall(tls, m.unary(),
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[] {1, 2, 3, 4});
            assertThat(answer).containsExactly(1, 2, 3, 4);

            ManagedChannel cleartext = GrpcClient.secure(NettyChannelBuilder.forAddress("127.0.0.1",
                server.getPort()), options("tcp", server.getPort())).build();
            plain = cleartext;
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(cleartext, m.unary(),
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[] {1}))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                    e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
        } finally {
            for (ManagedChannel c : new ManagedChannel[] {tls, plain}) {
                if (c != null) {
                    c.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                }
            }
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
