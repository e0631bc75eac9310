package dev.sluice.core.internal.connection;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.internal.stream.RequesterFireAndForget;
import dev.sluice.core.internal.stream.RequesterRequestChannel;
import dev.sluice.core.internal.stream.RequesterRequestResponse;
import dev.sluice.core.internal.stream.RequesterRequestStream;
import java.net.SocketAddress;
import java.time.Duration;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The requester API of one connection: what {@code RSocketConnector.connect} returns and what a server's acceptor
 * receives as {@code sendingSocket}. Each call makes the interaction's publisher; nothing happens until it is
 * subscribed. Thread-safe: every method may be called from any thread.
 */
final class ConnectionRequester implements Connection {

    private final RSocketConnection connection;

    ConnectionRequester(RSocketConnection connection) {
        this.connection = connection;
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return new RequesterFireAndForget(connection.streams(), payload, false);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return new RequesterRequestResponse(connection.streams(), payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return new RequesterRequestStream(connection.streams(), payload);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return new RequesterRequestChannel(connection.streams(), payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        return new RequesterFireAndForget(connection.streams(), payload, true);
    }

    @Override
    public double availability() {
        return connection.availability();
    }

    @Override
    public Flux<Long> rtt() {
        return connection.rtt();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        connection.closeGracefully(drainTimeout);
        return onClose();
    }

    @Override
    public boolean isDraining() {
        return connection.isDraining();
    }

    @Override
    public SocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public Mono<Void> onClose() {
        return connection.onClose();
    }

    @Override
    public void dispose() {
        connection.dispose();
    }

    @Override
    public boolean isDisposed() {
        return connection.isDisposed();
    }

    @Override
    public Throwable closeCause() {
        return connection.closeCause();
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
