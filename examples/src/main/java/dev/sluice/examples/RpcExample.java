package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.examples.greeter.GreeterClient;
import dev.sluice.examples.greeter.GreeterRpc;
import dev.sluice.examples.greeter.GreeterService;
import dev.sluice.examples.greeter.HelloReply;
import dev.sluice.examples.greeter.HelloRequest;
import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcRouter;
import dev.sluice.rpc.RpcStatus;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Protobuf RPC: the {@code Greeter} service of {@code src/main/proto/example/greeter/v1/greeter.proto}, generated
 * at build time into {@code GreeterService} (what the server implements), {@code GreeterClient} and
 * {@code GreeterRpc} (the binding a router serves). Prints a greeting, a stream of three, and a failure's status.
 *
 * <p>No payloads to release here: the generated code decodes each message and releases the payload it came in.
 */
public final class RpcExample {

    private RpcExample() {
    }

    /** The service: a greeting, a stream of them, and a status error for an empty name. */
    static final class Greeter implements GreeterService {
        @Override
        public Mono<HelloReply> sayHello(HelloRequest request) {
            if (request.getName().isEmpty()) {
                return Mono.error(new RpcException(RpcStatus.INVALID_ARGUMENT, "a name, please"));
            }
            return Mono.just(reply("Hello, " + request.getName()));
        }

        @Override
        public Flux<HelloReply> sayHelloRepeatedly(HelloRequest request) {
            return Flux.range(1, request.getTimes()).map(i -> reply("Hello #" + i + ", " + request.getName()));
        }

        private static HelloReply reply(String message) {
            return HelloReply.newBuilder().setMessage(message).build();
        }
    }

    public static void main(String[] args) {
        CloseableServer server = RSocketServer.create(SocketAcceptor.with(RpcRouter.of(GreeterRpc.bind(new Greeter()))))
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        Connection connection = RSocketConnector.create()
            .metadataMimeType("message/x.rsocket.composite-metadata.v0")
            .dataMimeType("application/vnd.google.protobuf")
            .connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        GreeterClient greeter = GreeterRpc.client(connection);

        HelloReply one = greeter.sayHello(HelloRequest.newBuilder().setName("Sluice").build()).block();
        System.out.println(one.getMessage());

        List<String> three = greeter.sayHelloRepeatedly(HelloRequest.newBuilder().setName("RPC").setTimes(3).build())
            .map(HelloReply::getMessage)
            .collectList()
            .block();
        System.out.println(three);

        try {
            greeter.sayHello(HelloRequest.getDefaultInstance()).block();
        } catch (RpcException e) {
            System.out.println("failed: " + e.status() + " " + e.description());
        }

        connection.dispose();
        server.dispose();
    }
}
