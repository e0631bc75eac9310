package dev.sluice.core.transport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/** A listening server socket. Disposing it stops accepting; connections already open are not affected. */
public interface ServerHandle extends Disposable {

    /** The bound address (with the real port when 0 was asked for). */
    SocketAddress address();

    /** The bound port, or -1 for a non-IP address. */
    default int port() {
        return address() instanceof InetSocketAddress a ? a.getPort() : -1;
    }

    /** Completes when the listening socket is closed. */
    Mono<Void> onClose();
}
