package dev.sluice.stress.state;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * A stream's state word and nothing else: the {@code @State} the {@code StreamState} tests race transitions on,
 * through {@link #STATE} as an interaction class would through its own updater.
 */
public class StateHolder {

    static final AtomicLongFieldUpdater<StateHolder> STATE =
        AtomicLongFieldUpdater.newUpdater(StateHolder.class, "state");

    volatile long state;

    StateHolder(long initial) {
        state = initial;
    }
}
