package dev.sluice.bench.throughput.internal;

import java.util.function.Consumer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * Consumes an infinite stream: disposes of each element as told (releases a payload; nothing for an RPC message)
 * and counts it, and keeps the demand bounded — {@code window} up front, then half a window each time half a window
 * has arrived. This is what {@code limitRate(window, window / 2)} does, without its queue, so the client does no
 * work beyond counting. The disposal is given rather than found by {@code instanceof ReferenceCounted}, which for
 * a protobuf message scans its interface list on every element (see {@link RequestLoop}). Elements reach the
 * meter half a window at a time, as the raw-Netty floor's client counts a socket read's at once: an atomic update
 * per element was a measurable share of a stream client's time.
 *
 * <p>Signals arrive serially (Reactive Streams §1.3); not otherwise thread-safe.
 *
 * @param <T> the payload type
 */
public final class WindowedCounter<T> implements CoreSubscriber<T> {

    private final Consumer<? super T> dispose;
    private final Meter meter;
    private final ClientReport report;
    private final int window;
    private final int half;
    private Subscription subscription;
    private int received;

    /**
     * @param dispose what is done with each element (e.g. {@code Payload::release})
     * @param window  the most elements requested and not yet received, &ge; 2
     */
    public WindowedCounter(Consumer<? super T> dispose, Meter meter, ClientReport report, int window) {
        if (window < 2) {
            throw new IllegalArgumentException("window < 2: " + window);
        }
        this.dispose = dispose;
        this.meter = meter;
        this.report = report;
        this.window = window;
        this.half = window / 2;
    }

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
        s.request(window);
    }

    @Override
    public void onNext(T payload) {
        dispose.accept(payload);
        if (++received == half) {
            received = 0;
            meter.add(half);
            subscription.request(half);
        }
    }

    @Override
    public void onError(Throwable t) {
        report.fail(t);
    }

    @Override
    public void onComplete() {
        report.fail(new IllegalStateException("the stream completed, but the benchmark's streams are infinite"));
    }
}
