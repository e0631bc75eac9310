package dev.sluice.loadbalance;

import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.Payload;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** A connection whose availability the test sets; answers request-response with its key. */
final class FakeConnection implements Connection {

    final String key;
    final AtomicInteger requests = new AtomicInteger();
    volatile double availability = 1.0;
    volatile boolean draining;
    /** Keep-alive answers: emit one to show the target answering. */
    final Sinks.Many<Long> keepAliveAnswers = Sinks.many().multicast().directBestEffort();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private volatile boolean disposed;
    private volatile Throwable cause;

    FakeConnection(String key) {
        this.key = key;
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        payload.release();
        requests.incrementAndGet();
        return Mono.fromSupplier(() -> Payload.create(key));
    }

    @Override
    public double availability() {
        return availability;
    }

    @Override
    public Flux<Long> rtt() {
        return keepAliveAnswers.asFlux();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        dispose();
        return Mono.empty();
    }

    @Override
    public boolean isDraining() {
        return draining;
    }

    @Override
    public Throwable closeCause() {
        if (!isDisposed()) {
            return null;
        }
        Throwable c = cause;
        return c != null ? c : new ConnectionClosedException("connection disposed");
    }

    @Override
    public SocketAddress remoteAddress() {
        return InetSocketAddress.createUnresolved(key, 1);
    }

    @Override
    public Mono<Void> onClose() {
        return closed.asMono();
    }

    /** Closes as the engine does when the peer ends the connection with {@code why}. */
    void closeWith(Throwable why) {
        cause = why;
        dispose();
    }

    @Override
    public void dispose() {
        disposed = true;
        closed.tryEmitEmpty();
    }

    @Override
    public boolean isDisposed() {
        return disposed;
    }
}
