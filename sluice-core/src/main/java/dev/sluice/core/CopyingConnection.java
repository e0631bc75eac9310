package dev.sluice.core;

import java.net.SocketAddress;
import java.time.Duration;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A requester under {@link PayloadDecoder#COPY}: each response from the peer is copied to the heap and its network
 * buffer released before the caller sees it. Requests go out untouched.
 */
final class CopyingConnection implements Connection {

    private final Connection delegate;

    CopyingConnection(Connection delegate) {
        this.delegate = delegate;
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return delegate.fireAndForget(payload);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return delegate.requestResponse(payload).map(CopiedPayload::copyAndRelease);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return delegate.requestStream(payload).map(CopiedPayload::copyAndRelease);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return delegate.requestChannel(payloads).map(CopiedPayload::copyAndRelease);
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
    public Flux<Long> rtt() {
        return delegate.rtt();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        return delegate.closeGracefully(drainTimeout);
    }

    @Override
    public boolean isDraining() {
        return delegate.isDraining();
    }

    @Override
    public Throwable closeCause() {
        return delegate.closeCause();
    }

    @Override
    public SocketAddress remoteAddress() {
        return delegate.remoteAddress();
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

    @Override
    public String toString() {
        return delegate.toString();
    }
}
