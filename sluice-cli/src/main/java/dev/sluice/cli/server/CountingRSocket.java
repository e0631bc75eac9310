package dev.sluice.cli.server;

import dev.sluice.core.DelegatingRSocket;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RequestType;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;

/**
 * Counts a server's requests that reach its handler into its {@link ServerStats}, leases on or off: a request
 * counts as rejected when it ends with ERROR[REJECTED] (e.g. the rate limit's {@code rate_limited}), accepted
 * otherwise, with its latency to the first signal (none when it is cancelled first). Requests the lease refuses
 * never get here; the engine reports those to the stats.
 *
 * <p>Thread-safe (the stats are).
 */
final class CountingRSocket extends DelegatingRSocket {

    private final ServerStats stats;

    private CountingRSocket(RSocket delegate, ServerStats stats) {
        super(delegate);
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

    private <T> Mono<T> counted(RequestType type, Mono<T> answer) {
        return Mono.defer(() -> {
            FirstSignal first = new FirstSignal(type, stats);
            return answer.doOnEach(first::on).doOnCancel(first::cancelled);
        });
    }

    private <T> Flux<T> counted(RequestType type, Flux<T> answer) {
        return Flux.defer(() -> {
            FirstSignal first = new FirstSignal(type, stats);
            return answer.doOnEach(first::on).doOnCancel(first::cancelled);
        });
    }

    /**
     * Counts one request at its first signal, or at its cancellation before any: exactly once, whichever comes
     * first (a cancel may race the answer from another thread).
     */
    private static final class FirstSignal extends AtomicBoolean {

        private final RequestType type;
        private final ServerStats stats;
        private final long startNanos = System.nanoTime();

        FirstSignal(RequestType type, ServerStats stats) {
            this.type = type;
            this.stats = stats;
        }

        void on(Signal<?> signal) {
            if (signal.isOnSubscribe() || !compareAndSet(false, true)) {
                return;
            }
            if (signal.isOnError() && signal.getThrowable() instanceof RejectedException) {
                stats.countRejected();
            } else {
                stats.countAccepted(type, System.nanoTime() - startNanos);
            }
        }

        void cancelled() {
            if (compareAndSet(false, true)) {
                stats.countAccepted(type, -1);
            }
        }
    }
}
