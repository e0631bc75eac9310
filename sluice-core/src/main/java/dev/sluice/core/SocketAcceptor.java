package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedSetupException;
import java.util.Objects;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Decides whether to accept a connection and with which handler. A server calls it once per connection after a
 * valid SETUP frame; frames that arrive meanwhile wait.
 *
 * <p>To refuse the connection, return {@code Mono.error(new RejectedSetupException("why"))}: the client receives
 * ERROR[REJECTED_SETUP] with that message ({@link RejectedSetupException}). Any other error is sent the same way.
 *
 * <p>A server that answers a single interaction can skip the {@link RSocket} class: {@link #forRequestResponse},
 * {@link #forRequestStream}, {@link #forRequestChannel} and {@link #forFireAndForget} build the acceptor from one
 * function (the other interactions answer "not supported"), as rsocket-java's methods of the same names do. The
 * function owns the payloads it receives, as any handler does ({@link Payload}).
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

    /** An acceptor whose handler answers request-response with {@code handler} and nothing else. */
    static SocketAcceptor forRequestResponse(Function<Payload, Mono<Payload>> handler) {
        Objects.requireNonNull(handler, "handler");
        return with(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                return handler.apply(payload);
            }
        });
    }

    /** An acceptor whose handler answers request-stream with {@code handler} and nothing else. */
    static SocketAcceptor forRequestStream(Function<Payload, Flux<Payload>> handler) {
        Objects.requireNonNull(handler, "handler");
        return with(new RSocket() {
            @Override
            public Flux<Payload> requestStream(Payload payload) {
                return handler.apply(payload);
            }
        });
    }

    /** An acceptor whose handler answers request-channel with {@code handler} and nothing else. */
    static SocketAcceptor forRequestChannel(Function<Publisher<Payload>, Flux<Payload>> handler) {
        Objects.requireNonNull(handler, "handler");
        return with(new RSocket() {
            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                return handler.apply(payloads);
            }
        });
    }

    /** An acceptor whose handler takes fire-and-forget with {@code handler} and nothing else. */
    static SocketAcceptor forFireAndForget(Function<Payload, Mono<Void>> handler) {
        Objects.requireNonNull(handler, "handler");
        return with(new RSocket() {
            @Override
            public Mono<Void> fireAndForget(Payload payload) {
                return handler.apply(payload);
            }
        });
    }
}
