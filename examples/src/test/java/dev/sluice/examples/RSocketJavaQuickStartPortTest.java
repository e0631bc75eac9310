package dev.sluice.examples;

import static org.assertj.core.api.Assertions.assertThat;

// The port: the imports of rsocket-java's README quick-start (the "Trivial Client" and the "Zero Copy" server and
// client setups), switched to Sluice. Each line below names the rsocket-java import it replaces.
import dev.sluice.core.CloseableServer;                  // io.rsocket.transport.netty.server.CloseableChannel
import dev.sluice.core.Payload;                          // io.rsocket.Payload
import dev.sluice.core.PayloadDecoder;                   // io.rsocket.frame.decoder.PayloadDecoder
import dev.sluice.core.RSocket;                          // io.rsocket.RSocket
import dev.sluice.core.RSocketConnector;                 // io.rsocket.core.RSocketConnector
import dev.sluice.core.RSocketServer;                    // io.rsocket.core.RSocketServer
import dev.sluice.core.SocketAcceptor;                   // io.rsocket.SocketAcceptor
import dev.sluice.transport.netty.TcpClientTransport;    // io.rsocket.transport.netty.client.TcpClientTransport
import dev.sluice.transport.netty.TcpServerTransport;    // io.rsocket.transport.netty.server.TcpServerTransport
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A switched-import port of rsocket-java's README quick-start, run over loopback TCP. It compiles with the
 * changes {@code docs/migrating-from-rsocket-java.md} lists and no others; each is marked {@code // CHANGE:} with
 * the row of that page it comes from. The test harness around the port (port 0 instead of 7878, results collected
 * instead of printed, servers disposed instead of blocked on) is not part of it.
 */
class RSocketJavaQuickStartPortTest {

    private CloseableServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.dispose();
        }
    }

    /** The server's handler (the README names one, {@code PingHandler}, without showing it): hello and a stream. */
    static final class HelloHandler implements RSocket {

        @Override
        public Mono<Payload> requestResponse(Payload payload) {
            String name = payload.dataUtf8();                   // CHANGE: getDataUtf8() -> dataUtf8()
            payload.release();                                  // zero-copy server: release what you read
            return Mono.just(Payload.create("Hello, " + name)); // CHANGE: DefaultPayload.create -> Payload.create
        }

        @Override
        public Flux<Payload> requestStream(Payload payload) {
            String topic = payload.dataUtf8();                  // CHANGE: getDataUtf8() -> dataUtf8()
            payload.release();
            return Flux.range(0, Integer.MAX_VALUE).map(i -> Payload.create(topic + " " + i));
        }
    }

    /** "Example Server setup", with the zero-copy decoder as the README enables it. */
    private CloseableServer startServer() {
        return RSocketServer.create(SocketAcceptor.with(new HelloHandler()))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(TcpServerTransport.create("127.0.0.1", 0))     // CHANGE: create(port) -> create(host, port)
            .block();
    }

    @Test
    void trivialClientStreamsTenElements() {
        server = startServer();
        List<String> printed = new CopyOnWriteArrayList<>();

        // "Trivial Client". CHANGE: WebsocketClientTransport -> TcpClientTransport (no WebSocket transport yet).
        // CHANGE: rsocket-java's default decoder copies; Sluice's is zero-copy, so a client that never releases
        // what it reads asks for copies: connectWith(t) -> create().payloadDecoder(PayloadDecoder.COPY).connect(t).
        TcpClientTransport transport = TcpClientTransport.create("127.0.0.1", server.port());
        RSocket clientRSocket = RSocketConnector.create().payloadDecoder(PayloadDecoder.COPY).connect(transport)
            .block();
        try {
            Flux<Payload> s = clientRSocket.requestStream(Payload.create("peace")); // CHANGE: DefaultPayload
            s.take(10).doOnNext(p -> printed.add(p.dataUtf8())).blockLast();     // CHANGE: getDataUtf8()
        } finally {
            clientRSocket.dispose();
        }

        assertThat(printed).hasSize(10).startsWith("peace 0", "peace 1").endsWith("peace 9");
    }

    @Test
    void zeroCopyClientSaysHello() {
        server = startServer();

        // "Example Client setup": unchanged apart from the transport's address.
        RSocket clientRSocket =
            RSocketConnector.create()
                .payloadDecoder(PayloadDecoder.ZERO_COPY)
                .connect(TcpClientTransport.create("127.0.0.1", server.port())) // CHANGE: create(host, port)
                .block();
        try {
            String hello = clientRSocket.requestResponse(Payload.create("RSocket"))
                .map(p -> {
                    String data = p.dataUtf8();                 // CHANGE: getDataUtf8() -> dataUtf8()
                    p.release();                                // zero-copy, in either library: free the payload
                    return data;
                })
                .block();
            assertThat(hello).isEqualTo("Hello, RSocket");
        } finally {
            clientRSocket.dispose();
        }
    }
}
