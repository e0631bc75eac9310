package dev.sluice.transport.netty.interop;

import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.WebsocketServerTransport;
import io.rsocket.transport.ClientTransport;
import io.rsocket.transport.netty.client.WebsocketClientTransport;
import java.net.URI;

/**
 * Every test of {@link SluiceServerInteropTest} over WebSocket: rsocket-java 1.1.5's {@code WebsocketClientTransport}
 * against Sluice's {@link WebsocketServerTransport} on its default path, {@code /rsocket}.
 */
class SluiceServerWebsocketInteropTest extends SluiceServerInteropTest {

    @Override
    ServerTransport sluiceServerTransport() {
        return WebsocketServerTransport.create("127.0.0.1", 0);
    }

    @Override
    ClientTransport javaClientTransport(int port) {
        return WebsocketClientTransport.create(URI.create("ws://127.0.0.1:" + port
            + WebsocketServerTransport.DEFAULT_PATH));
    }
}
