package dev.sluice.transport.netty.interop;

import dev.sluice.core.transport.ClientTransport;
import dev.sluice.transport.netty.WebsocketClientTransport;
import io.rsocket.transport.ServerTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.WebsocketServerTransport;

/**
 * Every test of {@link SluiceClientInteropTest} over WebSocket: Sluice's {@link WebsocketClientTransport} against
 * rsocket-java 1.1.5's {@code WebsocketServerTransport}, which serves the path {@code /}.
 */
class SluiceClientWebsocketInteropTest extends SluiceClientInteropTest {

    @Override
    ServerTransport<CloseableChannel> javaServerTransport() {
        return WebsocketServerTransport.create("127.0.0.1", 0);
    }

    @Override
    ClientTransport sluiceClientTransport(int port) {
        return WebsocketClientTransport.create("127.0.0.1", port).path("/");
    }
}
