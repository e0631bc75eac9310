package dev.sluice.core;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A running RSocket server. {@link #dispose()} stops listening and closes every connection at once;
 * {@link #closeGracefully} closes them with ERROR[CONNECTION_CLOSE] and lets in-flight streams drain.
 */
public interface CloseableServer extends Disposable {

    /** The bound address (with the real port when 0 was asked for). */
    SocketAddress address();

    /** The bound port, or -1 for a non-IP address. */
    default int port() {
        return address() instanceof InetSocketAddress a ? a.getPort() : -1;
    }

    /** Connections currently open. */
    int connectionCount();

    /** Stops accepting, closes each connection gracefully; completes when all are closed. */
    Mono<Void> closeGracefully(Duration drainTimeout);

    /** Completes when the server has stopped listening. */
    Mono<Void> onClose();
}
