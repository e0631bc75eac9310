package dev.sluice.stress.fake;

import dev.sluice.core.Payload;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A publisher the test drives by hand, standing for the application's outbound side of a channel: it remembers its
 * one subscriber, counts what it requested and whether it cancelled, and emits only when told to
 * ({@link #next}, {@link #complete}) — from whichever actor plays the application's thread.
 *
 * <p>Thread-safe in the Reactive Streams sense: the caller serializes {@code next}/{@code complete}.
 */
public final class ManualPublisher implements Publisher<Payload>, Subscription {

    private final AtomicLong requested = new AtomicLong();
    private volatile Subscriber<? super Payload> subscriber;
    private volatile boolean cancelled;

    @Override
    public void subscribe(Subscriber<? super Payload> s) {
        subscriber = s;
        s.onSubscribe(this);
    }

    /** Emits {@code p}; the caller must stay within {@link #requested}. */
    public void next(Payload p) {
        subscriber.onNext(p);
    }

    public void complete() {
        subscriber.onComplete();
    }

    /** All that was requested so far. */
    public long requested() {
        return requested.get();
    }

    public boolean cancelled() {
        return cancelled;
    }

    @Override
    public void request(long n) {
        requested.addAndGet(n);
    }

    @Override
    public void cancel() {
        cancelled = true;
    }
}
