package dev.sluice.files.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/** Records what it receives and requests only when the test says so. Thread-safe. */
class RecordingSubscriber<T> extends BaseSubscriber<T> {

    final List<T> items = new CopyOnWriteArrayList<>();
    volatile boolean completed;
    volatile Throwable error;

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        // No demand until the test asks.
    }

    /** Requests {@code n} from the subscription itself: unlike {@link #request}, lets {@code n <= 0} through. */
    void rawRequest(long n) {
        upstream().request(n);
    }

    @Override
    protected void hookOnNext(T value) {
        items.add(value);
    }

    @Override
    protected void hookOnComplete() {
        completed = true;
    }

    @Override
    protected void hookOnError(Throwable throwable) {
        error = throwable;
    }
}
