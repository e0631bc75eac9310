package dev.sluice.core.transport;

import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/** Listens for connections and hands each one, not yet reading, to an acceptor on the connection's event loop. */
public interface ServerTransport {

    /** Starts listening; the returned handle stops it. */
    Mono<ServerHandle> start(Consumer<DuplexConnection> acceptor);
}
