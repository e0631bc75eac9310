package dev.sluice.core.transport;

import reactor.core.publisher.Mono;

/** Opens one client connection (TCP, WebSocket, ...). */
public interface ClientTransport {

    /** Connects; the connection is not reading until {@link DuplexConnection#start} is called. */
    Mono<DuplexConnection> connect();
}
