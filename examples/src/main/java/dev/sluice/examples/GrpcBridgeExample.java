package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.examples.greeter.GreeterGrpc;
import dev.sluice.examples.greeter.GreeterRpc;
import dev.sluice.examples.greeter.HelloReply;
import dev.sluice.examples.greeter.HelloRequest;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.grpc.GrpcBridge;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One implementation of the {@code Greeter} service ({@link RpcExample.Greeter}) served to RSocket clients by an
 * {@code RpcRouter} and to gRPC clients by {@link GrpcBridge} on grpc-java's own server, then called once over each,
 * and a failure's status seen by the gRPC client. The gRPC client uses stubs protoc-gen-grpc-java generated from the
 * same {@code .proto} (see this module's pom.xml).
 */
public final class GrpcBridgeExample {

    private GrpcBridgeExample() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        RpcService greeter = GreeterRpc.bind(new RpcExample.Greeter());

        CloseableServer rsocketServer = RSocketServer.create(RpcRouter.of(greeter).acceptor())
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        Server grpcServer = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(GrpcBridge.service(greeter))
            .build()
            .start();

        Connection connection = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", rsocketServer.port()))
            .block();
        HelloRequest request = HelloRequest.newBuilder().setName("both").build();
        System.out.println("RSocket: " + GreeterRpc.client(connection).sayHello(request).block().getMessage());

        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcServer.getPort(),
            InsecureChannelCredentials.create()).build();
        GreeterGrpc.GreeterBlockingStub grpc = GreeterGrpc.newBlockingStub(channel);
        HelloReply reply = grpc.sayHello(request);
        System.out.println("gRPC: " + reply.getMessage());
        try {
            grpc.sayHello(HelloRequest.getDefaultInstance());
        } catch (StatusRuntimeException e) {
            Status status = e.getStatus();
            System.out.println("gRPC failed: " + status.getCode() + " " + status.getDescription());
        }

        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        connection.dispose();
        grpcServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        rsocketServer.dispose();
    }
}
