package dev.sluice.core;

import dev.sluice.core.exceptions.InvalidSetupException;

import dev.sluice.core.exceptions.ConnectionClosedException;

import dev.sluice.core.exceptions.ConnectionCloseException;

import java.net.SocketAddress;
import java.time.Duration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One RSocket connection seen from this side: an {@link RSocket} that sends requests to the peer, plus what only a
 * connection has — its keep-alive round-trip times, its address, and a graceful close.
 *
 * <p>Thread-safe: call it from any thread; work hops onto the connection's event loop.
 */
public interface Connection extends RSocket {

    /**
     * Round-trip times in nanoseconds, one per KEEPALIVE answered by the peer (the frame carries our timestamp,
     * which the peer echoes as the spec requires, so this works with any compliant peer). Hot: subscribers see the
     * samples taken after they subscribe. Completes when the connection closes.
     */
    Flux<Long> rtt();

    /**
     * Closes gracefully: sends ERROR[CONNECTION_CLOSE], refuses new requests in both directions, lets in-flight
     * streams finish for up to {@code drainTimeout}, then closes the transport. Completes when closed.
     */
    Mono<Void> closeGracefully(Duration drainTimeout);

    /**
     * Whether a graceful close is under way (ERROR[CONNECTION_CLOSE] sent or received): in-flight streams finish,
     * no new request starts. A balancer leaves draining connections out.
     */
    boolean isDraining();

    /**
     * Why this connection closed: the peer's ERROR (say an {@link InvalidSetupException} "lease is not supported"
     * when the server refused our SETUP), a keep-alive timeout, the transport's failure, or a
     * {@link ConnectionClosedException} / {@link ConnectionCloseException} for a plain or graceful close. Null while
     * open; set before {@link #onClose()} completes.
     */
    Throwable closeCause();

    /** The peer's address. */
    SocketAddress remoteAddress();
}
