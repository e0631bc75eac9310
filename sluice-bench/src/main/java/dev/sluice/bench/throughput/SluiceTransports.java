package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import dev.sluice.transport.netty.TlsClient;
import dev.sluice.transport.netty.TlsServer;
import dev.sluice.transport.netty.UnixClientTransport;
import dev.sluice.transport.netty.UnixServerTransport;
import dev.sluice.transport.netty.WebsocketClientTransport;
import dev.sluice.transport.netty.WebsocketServerTransport;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The Sluice transports of the benchmark mains (raw Sluice and Sluice RPC alike), in their default configuration:
 * TCP, TLS on TCP ({@code DIR/server.pem} and {@code DIR/server.key} served, {@code DIR/ca.pem} trusted, the host name
 * checked), a Unix domain socket, WebSocket at {@code /rsocket}. Stateless.
 */
public final class SluiceTransports {

    /** Every transport: Sluice's mains run them all. */
    public static final Set<Transport> ALL = Collections.unmodifiableSet(EnumSet.allOf(Transport.class));

    private SluiceTransports() {
    }

    /** The server transport {@code options} ask for. */
    public static ServerTransport server(ChildOptions options) {
        return switch (options.transport()) {
            case TCP -> TcpServerTransport.create(options.host(), options.port());
            case TLS -> {
                Path dir = Path.of(options.tls());
                yield TcpServerTransport.create(options.host(), options.port())
                    .secure(TlsServer.ofPem(dir.resolve("server.pem"), dir.resolve("server.key")));
            }
            case UNIX -> UnixServerTransport.create(Path.of(options.unixPath()));
            case WS -> WebsocketServerTransport.create(options.host(), options.port());
        };
    }

    /** The client transport {@code options} ask for. */
    public static ClientTransport client(ChildOptions options) {
        return switch (options.transport()) {
            case TCP -> TcpClientTransport.create(options.host(), options.port());
            case TLS -> TcpClientTransport.create(options.host(), options.port())
                .secure(TlsClient.trusting(Path.of(options.tls(), "ca.pem")));
            case UNIX -> UnixClientTransport.create(Path.of(options.unixPath()));
            case WS -> WebsocketClientTransport.create(options.host(), options.port());
        };
    }
}
