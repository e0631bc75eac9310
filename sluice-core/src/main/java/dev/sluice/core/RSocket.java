package dev.sluice.core;

import dev.sluice.core.exceptions.UnsupportedInteractionException;

import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The five RSocket interactions. A requester (what {@link RSocketConnector#connect} returns, or the
 * {@code sendingSocket} a server's acceptor receives) sends them to the peer; a handler you implement answers them.
 *
 * <p>Payload ownership: see {@link Payload}. Requests take ownership of their payloads; handlers own what they
 * receive. Every method's default answers "not supported", so a handler implements only what it serves.
 *
 * <p>Methods may be called from any thread; signals arrive on the connection's event loop unless the handler
 * moves them.
 */
public interface RSocket extends Disposable {

    /** Sends one payload, expecting no answer. Completes once the frame is queued for the network. */
    default Mono<Void> fireAndForget(Payload payload) {
        payload.release();
        return Mono.error(new UnsupportedInteractionException("fire-and-forget"));
    }

    /** Sends one payload and receives one answer (or an empty completion). */
    default Mono<Payload> requestResponse(Payload payload) {
        payload.release();
        return Mono.error(new UnsupportedInteractionException("request-response"));
    }

    /** Sends one payload and receives a stream, with Reactive Streams demand carried to the peer as REQUEST_N. */
    default Flux<Payload> requestStream(Payload payload) {
        payload.release();
        return Flux.error(new UnsupportedInteractionException("request-stream"));
    }

    /** A bidirectional stream; demand flows both ways. The first outbound payload opens the channel. */
    default Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.error(new UnsupportedInteractionException("request-channel"));
    }

    /** Sends connection-level metadata (stream 0). */
    default Mono<Void> metadataPush(Payload payload) {
        payload.release();
        return Mono.error(new UnsupportedInteractionException("metadata-push"));
    }

    /**
     * How much this socket can take now, from 0.0 (nothing: closed, closing, or out of lease) to 1.0.
     * Without leases an open connection reports 1.0.
     */
    default double availability() {
        return isDisposed() ? 0.0 : 1.0;
    }

    /** Completes when this socket is closed, for whatever reason. */
    default Mono<Void> onClose() {
        return Mono.never();
    }

    @Override
    default void dispose() {
    }
}
