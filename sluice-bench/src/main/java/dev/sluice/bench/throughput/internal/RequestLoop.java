package dev.sluice.bench.throughput.internal;

import io.netty.util.ReferenceCounted;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Request-response load over a Reactor API (Sluice's or rsocket-java's): a closed loop of a fixed number of
 * requests in flight, each answer sending the next from the thread that delivered it; and, paced by a
 * {@link Pacer} once the closed loop is stopped, one request per due time with its response time recorded from
 * that due time.
 *
 * <p>One small subscriber per request: subscribers are not reused (Reactive Streams §2.12). Thread-safe:
 * answers may arrive on any thread.
 *
 * @param <T> the payload type (released if reference-counted) or the message type (RPC)
 */
public final class RequestLoop<T> implements Pacer.Sender {

    private final Supplier<Mono<T>> call;
    private final Meter meter;
    private final ClientReport report;
    private final Latency latency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closedLoop;

    /**
     * @param call    makes one request (a fresh payload each time: requests take ownership of it)
     * @param latency where paced response times go; null if never paced
     */
    public RequestLoop(Supplier<Mono<T>> call, Meter meter, ClientReport report, Latency latency) {
        this.call = call;
        this.meter = meter;
        this.report = report;
        this.latency = latency;
    }

    /** Starts a closed loop of {@code requests} in flight. */
    public void startClosedLoop(int requests) {
        closedLoop = true;
        for (int i = 0; i < requests; i++) {
            call.get().subscribe(new Answer(false, 0));
        }
    }

    @Override
    public void stopClosedLoop() {
        closedLoop = false;
    }

    @Override
    public void send(long dueNanos) {
        inFlight.incrementAndGet();
        call.get().subscribe(new Answer(true, dueNanos));
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    private final class Answer implements CoreSubscriber<T> {
        private final boolean paced;
        private final long dueNanos;

        Answer(boolean paced, long dueNanos) {
            this.paced = paced;
            this.dueNanos = dueNanos;
        }

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(T payload) {
            if (payload instanceof ReferenceCounted zeroCopy) {
                zeroCopy.release();
            }
            if (paced) {
                latency.record(dueNanos, System.nanoTime());
            }
            meter.increment();
        }

        @Override
        public void onError(Throwable t) {
            if (paced) {
                inFlight.decrementAndGet();
            }
            report.fail(t);
        }

        @Override
        public void onComplete() {
            if (paced) {
                inFlight.decrementAndGet();
            } else if (closedLoop) {
                call.get().subscribe(new Answer(false, 0));
            }
        }
    }
}
