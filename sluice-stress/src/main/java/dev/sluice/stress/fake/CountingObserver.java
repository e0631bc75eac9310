package dev.sluice.stress.fake;

import dev.sluice.core.internal.lease.ResponderObserver;

/**
 * A responder observer that counts how often a stream was reported terminated: once is right, twice means two
 * paths both believed they ended the stream. Event-loop confined, read by the arbiter.
 */
public final class CountingObserver implements ResponderObserver {

    private int terminations;

    public int terminations() {
        return terminations;
    }

    @Override
    public void onFirstSignal(int streamId, int signal) {
    }

    @Override
    public void onTerminated(int streamId, int signal) {
        terminations++;
    }
}
