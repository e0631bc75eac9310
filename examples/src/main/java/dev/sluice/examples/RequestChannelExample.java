package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.util.List;
import reactor.core.publisher.Flux;

/**
 * Request-channel: a stream each way on one request. The client sends words; the server answers each in upper
 * case as it arrives. Prints {@code received [RIVERS, FLOW, BOTH, WAYS]}.
 */
public final class RequestChannelExample {

    private RequestChannelExample() {
    }

    public static void main(String[] args) {
        CloseableServer server = RSocketServer.create(SocketAcceptor.forRequestChannel(requests -> Flux.from(requests)
            .map(word -> {
                String upper = word.dataUtf8().toUpperCase();
                word.release();
                return Payload.create(upper);
            })))
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));

        Connection client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        List<String> answers = client.requestChannel(Flux.just("rivers", "flow", "both", "ways").map(Payload::create))
            .map(answer -> {
                String s = answer.dataUtf8();
                answer.release();
                return s;
            })
            .collectList()
            .block();
        System.out.println("received " + answers);

        client.dispose();
        server.dispose();
    }
}
