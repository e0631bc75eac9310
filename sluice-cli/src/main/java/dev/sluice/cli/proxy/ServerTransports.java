package dev.sluice.cli.proxy;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.address.Scheme;
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
 * the transport each other fixed entry names. A {@code tls://} server is trusted by the CAs of
 * {@code --servers-tls-ca}, or the JDK's without it; the proxy presents no client certificate and sends no token
 * (it terminates TLS and authentication for its clients, in front of servers that need neither). Stateless.
 */
final class ServerTransports {

    private ServerTransports() {
    }

    /**
     * The transport to each fixed server.
     *
     * @throws IllegalArgumentException a usage error: a {@code wss://} server, or {@code --servers-tls-ca} without a
     *                                  {@code tls://} server
     */
    static Function<Address, ClientTransport> of(List<ServerAddress> servers, Path tlsCa) {
        boolean anyTls = false;
        for (ServerAddress s : servers) {
            if (s.address().scheme() == Scheme.WSS) {
                throw new IllegalArgumentException("--servers " + s + ": wss:// servers are not supported yet (the"
                    + " WebSocket transport has no TLS in this build); use tls:// or ws://");
            }
            anyTls |= s.address().scheme() == Scheme.TLS;
        }
        if (tlsCa != null && !anyTls) {
            throw new IllegalArgumentException("--servers-tls-ca needs a tls:// server in --servers");
        }
        TlsClient tls = tlsCa == null ? TlsClient.trustingJdkDefaults() : TlsClient.trusting(tlsCa);
        if (anyTls) {
            // Reads the CA file now, so that a wrong one is a usage error rather than a server that never connects.
            TcpClientTransport.create("localhost", 1).secure(tls);
        }
        return a -> switch (a.scheme()) {
            case TCP -> TcpClientTransport.create(a.host(), a.port());
            case TLS -> TcpClientTransport.create(a.host(), a.port()).secure(tls);
            case WS, WSS -> WebsocketClientTransport.create(a.host(), a.port()).path(a.path());
            case UNIX -> UnixClientTransport.create(a.socketFile());
        };
    }
}
