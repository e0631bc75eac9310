package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedException;

import reactor.core.publisher.Mono;

/**
 * Decides, per request, whether it may reach the handler: a responder-side admission check such as a rate limit
 * ({@link RateLimitGate}). It runs after the lease check and before the handler; a request it refuses gets
 * ERROR[REJECTED] and the handler never sees it.
 *
 * <p>Called on the connection's event loop: it must not block.
 */
@FunctionalInterface
public interface RequestGate {

    /**
     * Admits one request.
     *
     * @param request borrowed: read it (metadata for a key), do not release or keep it
     * @return null to admit at once (the fast path allocates nothing); otherwise a {@code Mono} that completes when
     *         the request may proceed, or fails — with a {@link RejectedException} to refuse it. Cancelling that
     *         {@code Mono} must give back whatever it took.
     */
    Mono<Void> admit(RequestType type, Payload request);

    /** {@code handler} behind this gate. */
    default RSocket protect(RSocket handler) {
        return new GatedRSocket(handler, this);
    }

    /** An acceptor whose handlers are each behind the gate {@code gates} makes for their connection. */
    static SocketAcceptor protect(SocketAcceptor acceptor,
                                  java.util.function.Function<Connection, RequestGate> gates) {
        return (setup, sendingSocket) -> {
            RequestGate gate = gates.apply(sendingSocket);
            return acceptor.accept(setup, sendingSocket).map(gate::protect);
        };
    }
}
