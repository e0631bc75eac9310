package dev.sluice.files.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A publisher for one subscriber that emits only when the test says so (or, once {@link #flood flooding}, at once
 * inside every {@code request}), and records the demand it was given and whether it was cancelled.
 * {@code request} and {@code cancel} are thread-safe; emitting is single-threaded: the test thread, or the thread
 * that requests while flooding (with a {@link ManualExecutor}, the test thread too).
 */
final class ManualPublisher<T> implements Publisher<T> {

    final AtomicLong requested = new AtomicLong();
    final AtomicLong requestCalls = new AtomicLong();
    final AtomicBoolean cancelled = new AtomicBoolean();
    private volatile Subscriber<? super T> subscriber;
    private long emitted;
    private Supplier<T> flood;
    private long floodLeft;
    private boolean completed;
    /** Runs after every emission; tests measure there. */
    Runnable afterEmit = () -> { };

    @Override
    public void subscribe(Subscriber<? super T> s) {
        if (subscriber != null) {
            throw new IllegalStateException("one subscriber only");
        }
        subscriber = s;
        s.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                requestCalls.incrementAndGet();
                requested.addAndGet(n);
                if (flood != null) {
                    emitOutstanding();
                }
            }

            @Override
            public void cancel() {
                cancelled.set(true);
            }
        });
    }

    /** Demand given and not yet used. */
    long outstandingDemand() {
        return requested.get() - emitted;
    }

    long emitted() {
        return emitted;
    }

    /** Emits one item, whatever the demand (tests of misbehaving sources rely on that). */
    void emit(T item) {
        emitted++;
        subscriber.onNext(item);
        afterEmit.run();
    }

    /**
     * From now on emits items from {@code items} as soon as there is demand, starting with the demand outstanding
     * now, until {@code total} more have been emitted; then completes.
     */
    void flood(Supplier<T> items, long total) {
        flood = items;
        floodLeft = total;
        emitOutstanding();
    }

    private void emitOutstanding() {
        while (floodLeft > 0 && outstandingDemand() > 0 && !cancelled.get()) {
            floodLeft--;
            emit(flood.get());
        }
        if (floodLeft == 0 && !completed) {
            completed = true;
            complete();
        }
    }

    void complete() {
        subscriber.onComplete();
    }

    void error(Throwable t) {
        subscriber.onError(t);
    }
}
