package dev.sluice.bench.throughput.internal;

import io.netty.util.ReferenceCounted;
import java.util.function.Supplier;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Fire-and-forget load that counts only what the server has handled and never queues without bound. A
 * fire-and-forget completes once its frame is queued for the network, so a client sending in a loop measures its
 * own queue, and can fill its memory when the server is slower. Instead the load runs in rounds: {@code round}
 * fire-and-forgets, then one request-response (the fence); a connection delivers frames in order, so the fence's
 * answer proves the server has taken the round's messages, which are counted then. Two rounds are in flight, so
 * the server always has the next one to read; the fence costs one request-response per round.
 *
 * <p>Thread-safe: rounds start from whichever thread delivers a fence's answer.
 *
 * @param <T> the fence's payload type
 */
public final class FencedFireAndForget<T extends ReferenceCounted> {

    /** Rounds in flight. */
    static final int ROUNDS_IN_FLIGHT = 2;

    private final Supplier<Mono<Void>> fireAndForget;
    private final Supplier<Mono<T>> fence;
    private final int round;
    private final Meter meter;
    private final ClientReport report;

    /**
     * @param fireAndForget sends one fire-and-forget (a fresh payload each time)
     * @param fence         sends one request-response
     * @param round         fire-and-forgets per round, &gt; 0
     */
    public FencedFireAndForget(Supplier<Mono<Void>> fireAndForget, Supplier<Mono<T>> fence, int round, Meter meter,
            ClientReport report) {
        if (round <= 0) {
            throw new IllegalArgumentException("round <= 0: " + round);
        }
        this.fireAndForget = fireAndForget;
        this.fence = fence;
        this.round = round;
        this.meter = meter;
        this.report = report;
    }

    /** Starts the rounds. */
    public void start() {
        for (int i = 0; i < ROUNDS_IN_FLIGHT; i++) {
            sendRound();
        }
    }

    private void sendRound() {
        for (int i = 0; i < round; i++) {
            fireAndForget.get().subscribe(new Sent());
        }
        fence.get().subscribe(new Fence());
    }

    private final class Sent implements CoreSubscriber<Void> {
        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Void v) {
        }

        @Override
        public void onError(Throwable t) {
            report.fail(t);
        }

        @Override
        public void onComplete() {
        }
    }

    private final class Fence implements CoreSubscriber<T> {
        private boolean answered;

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(T payload) {
            payload.release();
            answered = true;
        }

        @Override
        public void onError(Throwable t) {
            report.fail(t);
        }

        @Override
        public void onComplete() {
            if (!answered) {
                report.fail(new IllegalStateException("the fence's request-response completed without an answer"));
                return;
            }
            meter.add(round);
            sendRound();
        }
    }
}
