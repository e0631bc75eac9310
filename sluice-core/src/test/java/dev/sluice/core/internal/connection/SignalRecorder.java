package dev.sluice.core.internal.connection;

import dev.sluice.core.Payload;
import java.util.ArrayList;
import java.util.List;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * A subscriber that requests and cancels only when the test says so, and records each signal it gets as a line:
 * {@code "next a"}, {@code "complete"}, {@code "error InvalidException: why"}. It releases every payload.
 *
 * <p>Not thread-safe: the engine under a {@link FakeTransport} signals on the test thread.
 */
final class SignalRecorder implements CoreSubscriber<Payload> {

    private final List<String> signals = new ArrayList<>();
    private Subscription subscription;

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
    }

    @Override
    public void onNext(Payload p) {
        try {
            signals.add("next " + p.dataUtf8());
        } finally {
            p.release();
        }
    }

    @Override
    public void onError(Throwable t) {
        signals.add("error " + t.getClass().getSimpleName() + ": " + t.getMessage());
    }

    @Override
    public void onComplete() {
        signals.add("complete");
    }

    void request(long n) {
        subscription.request(n);
    }

    void cancel() {
        subscription.cancel();
    }

    /** The signals recorded since the last call. */
    List<String> take() {
        List<String> out = new ArrayList<>(signals);
        signals.clear();
        return out;
    }
}
