package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import reactor.core.publisher.Mono;

/**
 * Request-response: a server that greets, a client that asks once. Prints {@code Hello, Sluice}.
 *
 * <p>Ownership, the one rule to learn: a payload you receive is yours to release; one you hand to Sluice (a
 * request, an answer) is released by Sluice.
 */
public final class RequestResponseExample {

    private RequestResponseExample() {
    }

    public static void main(String[] args) {
        CloseableServer server = RSocketServer.create(SocketAcceptor.forRequestResponse(request -> {
            String name = request.dataUtf8();
            request.release();                                   // received: ours to release
            return Mono.just(Payload.create("Hello, " + name));  // handed to Sluice: Sluice releases it
        })).bindNow(TcpServerTransport.create("127.0.0.1", 0));  // port 0: any free port

        Connection client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        String greeting = client.requestResponse(Payload.create("Sluice"))
            .map(answer -> {
                try {
                    return answer.dataUtf8();
                } finally {
                    answer.release();
                }
            })
            .block();
        System.out.println(greeting);

        client.dispose();
        server.dispose();
    }
}
