package dev.sluice.core;

import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An {@link RSocket} that hands every call to another: extend it and override only what you change (a deadline, a
 * gate, a counter around the requests), as with rsocket-java's {@code RSocketProxy}. Every method, availability and
 * the close methods included, forwards to {@link #delegate} unless overridden.
 */
public abstract class DelegatingRSocket implements RSocket {

    /** Where every call goes. */
    protected final RSocket delegate;

    protected DelegatingRSocket(RSocket delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return delegate.fireAndForget(payload);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return delegate.requestResponse(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return delegate.requestStream(payload);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return delegate.requestChannel(payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        return delegate.metadataPush(payload);
    }

    @Override
    public double availability() {
        return delegate.availability();
    }

    @Override
    public Mono<Void> onClose() {
        return delegate.onClose();
    }

    @Override
    public void dispose() {
        delegate.dispose();
    }

    @Override
    public boolean isDisposed() {
        return delegate.isDisposed();
    }
}
