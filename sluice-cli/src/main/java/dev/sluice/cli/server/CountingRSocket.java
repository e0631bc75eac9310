package dev.sluice.cli.server;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RequestType;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * Counts a server's requests into its {@link ServerStats} when no lease is configured: without leases the engine
 * has no stats recorder to call, and the once-a-second log would read {@code accepted=0 rejected=0} while serving.
 * A request counts as rejected when it ends with ERROR[REJECTED] (e.g. the rate limit's {@code rate_limited}),
 * accepted otherwise, with its latency to the first signal.
 *
 * <p>Thread-safe (the stats are).
 */
final class CountingRSocket implements RSocket {

    private final RSocket delegate;
    private final ServerStats stats;

    private CountingRSocket(RSocket delegate, ServerStats stats) {
        this.delegate = delegate;
        this.stats = stats;
    }

    /** {@code acceptor} with every accepted connection's handler counted into {@code stats}. */
    static SocketAcceptor counting(SocketAcceptor acceptor, ServerStats stats) {
        return (setup, connection) -> acceptor.accept(setup, connection).map(h -> new CountingRSocket(h, stats));
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return counted(RequestType.FIRE_AND_FORGET, delegate.fireAndForget(payload));
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return counted(RequestType.REQUEST_RESPONSE, delegate.requestResponse(payload));
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return Flux.from(counted(RequestType.REQUEST_STREAM, delegate.requestStream(payload)));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(counted(RequestType.REQUEST_CHANNEL, delegate.requestChannel(payloads)));
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

    private <T> Mono<T> counted(RequestType type, Mono<T> answer) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            boolean[] first = {true};
            return answer.doOnEach(signal -> {
                if (first[0] && !signal.isOnSubscribe()) {
                    first[0] = false;
                    record(type, signal.getType(), signal.isOnError() ? signal.getThrowable() : null, start);
                }
            });
        });
    }

    private <T> Flux<T> counted(RequestType type, Flux<T> answer) {
        return Flux.defer(() -> {
            long start = System.nanoTime();
            boolean[] first = {true};
            return answer.doOnEach(signal -> {
                if (first[0] && !signal.isOnSubscribe()) {
                    first[0] = false;
                    record(type, signal.getType(), signal.isOnError() ? signal.getThrowable() : null, start);
                }
            });
        });
    }

    private void record(RequestType type, SignalType first, Throwable error, long startNanos) {
        stats.onResponseStarted(type, type, first, System.nanoTime() - startNanos,
            error instanceof RejectedException);
    }
}
