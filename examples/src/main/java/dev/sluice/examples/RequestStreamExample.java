package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.PayloadDecoder;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.util.List;
import reactor.core.publisher.Flux;

/**
 * Request-stream: the server counts without end; the client takes five and cancels. Demand travels on the wire
 * (REQUEST_N), so the server produces only what was asked for. Prints {@code received [tick 0, ..., tick 4]}.
 *
 * <p>This client receives heap copies ({@link PayloadDecoder#COPY}): no release needed, at the cost of a copy per
 * element. The server stays zero-copy.
 */
public final class RequestStreamExample {

    private RequestStreamExample() {
    }

    public static void main(String[] args) {
        CloseableServer server = RSocketServer.create(SocketAcceptor.forRequestStream(request -> {
            String prefix = request.dataUtf8();
            request.release();
            return Flux.range(0, Integer.MAX_VALUE).map(i -> Payload.create(prefix + " " + i));
        })).bindNow(TcpServerTransport.create("127.0.0.1", 0));

        Connection client = RSocketConnector.create()
            .payloadDecoder(PayloadDecoder.COPY)
            .connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        List<String> ticks = client.requestStream(Payload.create("tick"))
            .take(5)                                   // cancels the stream after the fifth element
            .map(Payload::dataUtf8)                    // copies: nothing to release
            .collectList()
            .block();
        System.out.println("received " + ticks);

        client.dispose();
        server.dispose();
    }
}
