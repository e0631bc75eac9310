package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import dev.sluice.rpc.echo.v1.RealEchoService;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bridged service is discoverable as grpc-java users expect (server reflection, health), and one implementation
 * instance answers RSocket and gRPC clients at the same time.
 */
class DiscoveryAndBothProtocolsTest {

    @Test
    void reflectionListsAndDescribesTheServiceAndHealthReportsServing() throws Exception {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus(EchoRpc.SERVICE_NAME, HealthCheckResponse.ServingStatus.SERVING);
        try (GrpcLoopback loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(new RealEchoService())),
            ProtoReflectionServiceV1.newInstance().bindService(), health.getHealthService().bindService())) {
            ServerReflectionResponse list = reflect(loopback, ServerReflectionRequest.newBuilder()
                .setListServices("").build());
            assertThat(list.getListServicesResponse().getServiceList()).extracting(ServiceResponse::getName)
                .contains(EchoRpc.SERVICE_NAME, "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection");

            ServerReflectionResponse file = reflect(loopback, ServerReflectionRequest.newBuilder()
                .setFileContainingSymbol(EchoRpc.SERVICE_NAME).build());
            FileDescriptorProto proto = FileDescriptorProto.parseFrom(
                file.getFileDescriptorResponse().getFileDescriptorProto(0));
            assertThat(proto.getName()).isEqualTo("sluice/echo/v1/echo.proto");
            assertThat(proto.getService(0).getMethodList()).extracting(m -> m.getName())
                .containsExactly("Say", "Repeat", "Collect", "Chat");

            HealthCheckResponse status = HealthGrpc.newBlockingStub(loopback.channel)
                .withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .check(HealthCheckRequest.newBuilder().setService(EchoRpc.SERVICE_NAME).build());
            assertThat(status.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        }
    }

    private static ServerReflectionResponse reflect(GrpcLoopback loopback, ServerReflectionRequest request)
        throws Exception {
        CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(loopback.channel)
            .serverReflectionInfo(new StreamObserver<>() {
                @Override
                public void onNext(ServerReflectionResponse value) {
                    answer.complete(value);
                }

                @Override
                public void onError(Throwable t) {
                    answer.completeExceptionally(t);
                }

                @Override
                public void onCompleted() {
                }
            });
        requests.onNext(request);
        requests.onCompleted();
        return answer.get(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void oneImplementationInstanceAnswersBothProtocols() throws Exception {
        ObservedEcho echo = new ObservedEcho();
        RpcService service = EchoRpc.bind(echo);
        CloseableServer rsocketServer = RSocketServer.create(SocketAcceptor.with(RpcRouter.of(service)))
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(GrpcLoopback.TIMEOUT);
        Connection connection = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", rsocketServer.port()))
            .block(GrpcLoopback.TIMEOUT);
        try (GrpcLoopback grpc = new GrpcLoopback(GrpcBridge.service(service))) {
            EchoRequest hello = EchoRequest.newBuilder().setText("hello").build();
            EchoReply overRsocket = EchoRpc.client(connection).say(hello).block(GrpcLoopback.TIMEOUT);
            EchoReply overGrpc = EchoGrpc.newBlockingStub(grpc.channel)
                .withDeadlineAfter(GrpcLoopback.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).say(hello);
            assertThat(List.of(overRsocket.getText(), overGrpc.getText())).containsExactly("hello", "hello");
            assertThat(List.of(overRsocket.getIndex(), overGrpc.getIndex())).containsExactly(1, 2);
            assertThat(echo.says.get()).isEqualTo(2);
        } finally {
            connection.dispose();
            rsocketServer.dispose();
            rsocketServer.onClose().block(GrpcLoopback.TIMEOUT);
        }
    }
}
