package dev.sluice.rpc;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * A Sluice server serving an RSocket handler (an {@link RpcRouter}) and a Sluice connection to it, over loopback
 * TCP. Closed by the test after each case.
 */
public final class LoopbackRpc implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    public final CloseableServer server;
    public final Connection connection;

    public LoopbackRpc(RSocket handler) {
        server = RSocketServer.create((setup, sendingSocket) -> Mono.just(handler))
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        connection = RSocketConnector.create()
            .metadataMimeType("message/x.rsocket.composite-metadata.v0")
            .dataMimeType("application/x-protobuf")
            .connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }

    @Override
    public void close() {
        connection.dispose();
        connection.onClose().block(TIMEOUT);
        server.dispose();
        server.onClose().block(TIMEOUT);
    }
}
