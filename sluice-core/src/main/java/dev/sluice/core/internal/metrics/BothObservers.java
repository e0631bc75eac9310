package dev.sluice.core.internal.metrics;

import dev.sluice.core.internal.lease.ResponderObserver;

/** Two observers of one request: the lease statistics' and the metrics'. */
public final class BothObservers implements ResponderObserver {

    private final ResponderObserver first;
    private final ResponderObserver second;

    private BothObservers(ResponderObserver first, ResponderObserver second) {
        this.first = first;
        this.second = second;
    }

    /** {@code a} and {@code b}, or just one of them when the other is {@link ResponderObserver#NOOP}. */
    public static ResponderObserver of(ResponderObserver a, ResponderObserver b) {
        if (a == NOOP) {
            return b;
        }
        return b == NOOP ? a : new BothObservers(a, b);
    }

    @Override
    public void onFirstSignal(int streamId, int signal) {
        first.onFirstSignal(streamId, signal);
        second.onFirstSignal(streamId, signal);
    }

    @Override
    public void onError(int streamId, Throwable error) {
        first.onError(streamId, error);
        second.onError(streamId, error);
    }

    @Override
    public void onTerminated(int streamId, int signal) {
        first.onTerminated(streamId, signal);
        second.onTerminated(streamId, signal);
    }
}
