package dev.sluice.bench.throughput.internal;

import io.netty.util.ReferenceCounted;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * Consumes an infinite stream of zero-copy payloads: releases and counts each one, and keeps the demand bounded
 * — {@code window} up front, then half a window each time half a window has arrived. This is what
 * {@code limitRate(window, window / 2)} does, without its queue, so the client does no work beyond counting.
 * Works for Sluice's and rsocket-java's payloads alike (both are {@link ReferenceCounted}) and for RPC messages,
 * which need no release.
 *
 * <p>Signals arrive serially (Reactive Streams §1.3); not otherwise thread-safe.
 *
 * @param <T> the payload type
 */
public final class WindowedCounter<T> implements CoreSubscriber<T> {

    private final Meter meter;
    private final ClientReport report;
    private final int window;
    private final int half;
    private Subscription subscription;
    private int received;

    /** @param window the most elements requested and not yet received, &ge; 2 */
    public WindowedCounter(Meter meter, ClientReport report, int window) {
        if (window < 2) {
            throw new IllegalArgumentException("window < 2: " + window);
        }
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
        if (payload instanceof ReferenceCounted zeroCopy) {
            zeroCopy.release();
        }
        meter.increment();
        if (++received == half) {
            received = 0;
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
