package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedSetupException;
import reactor.core.publisher.Mono;

/**
 * Decides whether to accept a connection and with which handler. A server calls it once per connection after a
 * valid SETUP frame; frames that arrive meanwhile wait.
 *
 * <p>To refuse the connection, return {@code Mono.error(new RejectedSetupException("why"))}: the client receives
 * ERROR[REJECTED_SETUP] with that message ({@link RejectedSetupException}). Any other error is sent the same way.
 */
@FunctionalInterface
public interface SocketAcceptor {

    /**
     * @param setup         what the client sent in SETUP; valid while this runs
     * @param sendingSocket sends requests to the client (a server may call its client)
     * @return the handler for the client's requests
     */
    Mono<RSocket> accept(ConnectionSetupPayload setup, Connection sendingSocket);

    /** An acceptor that serves every connection with the same handler. */
    static SocketAcceptor with(RSocket handler) {
        return (setup, sendingSocket) -> Mono.just(handler);
    }
}
