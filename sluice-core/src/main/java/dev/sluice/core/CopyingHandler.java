package dev.sluice.core;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A handler under {@link PayloadDecoder#COPY}: each request the peer sends is copied to the heap and its network
 * buffer released before {@code delegate} sees it. What the handler answers passes through untouched.
 */
final class CopyingHandler extends DelegatingRSocket {

    CopyingHandler(RSocket delegate) {
        super(delegate);
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return delegate.fireAndForget(CopiedPayload.copyAndRelease(payload));
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return delegate.requestResponse(CopiedPayload.copyAndRelease(payload));
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return delegate.requestStream(CopiedPayload.copyAndRelease(payload));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return delegate.requestChannel(Flux.from(payloads).map(CopiedPayload::copyAndRelease));
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        return delegate.metadataPush(CopiedPayload.copyAndRelease(payload));
    }

}
