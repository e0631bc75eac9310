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
final class CopyingConnection extends DelegatingRSocket implements Connection {

    /** The same object as {@link #delegate}, as a {@code Connection}. */
    private final Connection connection;

    CopyingConnection(Connection delegate) {
        super(delegate);
        this.connection = delegate;
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
    public Flux<Long> rtt() {
        return connection.rtt();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        return connection.closeGracefully(drainTimeout);
    }

    @Override
    public boolean isDraining() {
        return connection.isDraining();
    }

    @Override
    public Throwable closeCause() {
        return connection.closeCause();
    }

    @Override
    public SocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
