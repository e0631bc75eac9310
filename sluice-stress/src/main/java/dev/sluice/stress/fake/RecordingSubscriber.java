package dev.sluice.stress.fake;

import dev.sluice.core.Payload;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * A subscriber that logs its signals, one letter each — n onNext, c onComplete, e onError ("-" for none) — and
 * releases every payload it receives, as an application would.
 *
 * <p>Signals come from the event loop; the log is read by the arbiter, after every actor. {@link #subscription}
 * is safe to use from any thread once {@code onSubscribe} ran.
 */
public final class RecordingSubscriber implements CoreSubscriber<Payload> {

    private final long requestOnSubscribe;
    private final StringBuilder signals = new StringBuilder();
    private volatile Subscription subscription;

    /** @param requestOnSubscribe what to request in {@code onSubscribe}; 0 for nothing */
    public RecordingSubscriber(long requestOnSubscribe) {
        this.requestOnSubscribe = requestOnSubscribe;
    }

    public Subscription subscription() {
        return subscription;
    }

    /** The signals received, in order, or "-". */
    public String signals() {
        return signals.length() == 0 ? "-" : signals.toString();
    }

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
        if (requestOnSubscribe > 0) {
            s.request(requestOnSubscribe);
        }
    }

    @Override
    public void onNext(Payload p) {
        signals.append('n');
        p.release();
    }

    @Override
    public void onError(Throwable t) {
        signals.append('e');
    }

    @Override
    public void onComplete() {
        signals.append('c');
    }
}
