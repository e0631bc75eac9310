package dev.sluice.cli.proxy;

import dev.sluice.cli.address.Address;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TlsClient;
import dev.sluice.transport.netty.UnixClientTransport;
import dev.sluice.transport.netty.WebsocketClientTransport;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * How the proxy connects to its {@code --servers}: plaintext TCP for {@code host:port} and {@code dns:} entries, and
 * the transport each other fixed entry names. A {@code tls://} or {@code wss://} server is trusted by the CAs of
 * {@code --servers-tls-ca}, or the JDK's without it; the proxy presents no client certificate and sends no token
 * (it terminates TLS and authentication for its clients, in front of servers that need neither). Stateless.
 */
final class ServerTransports {

    private ServerTransports() {
    }

    /**
     * The transport to each fixed server.
     *
     * @throws IllegalArgumentException a usage error: {@code --servers-tls-ca} without a {@code tls://} or
     *                                  {@code wss://} server, or a CA file that cannot be used
     */
    static Function<Address, ClientTransport> of(List<ServerAddress> servers, Path tlsCa) {
        boolean anyTls = false;
        for (ServerAddress s : servers) {
            anyTls |= s.address().scheme().secure();
        }
        if (tlsCa != null && !anyTls) {
            throw new IllegalArgumentException("--servers-tls-ca needs a tls:// or wss:// server in --servers");
        }
        TlsClient tls = tlsCa == null ? TlsClient.trustingJdkDefaults() : TlsClient.trusting(tlsCa);
        if (anyTls) {
            // Reads the CA file now, so that a wrong one is a usage error rather than a server that never connects.
            TcpClientTransport.create("localhost", 1).secure(tls);
        }
        return a -> switch (a.scheme()) {
            case TCP -> TcpClientTransport.create(a.host(), a.port());
            case TLS -> TcpClientTransport.create(a.host(), a.port()).secure(tls);
            case WS -> WebsocketClientTransport.create(a.host(), a.port()).path(a.path());
            case WSS -> WebsocketClientTransport.create(a.host(), a.port()).path(a.path()).secure(tls);
            case UNIX -> UnixClientTransport.create(a.socketFile());
        };
    }
}
