package dev.sluice.micrometer;

import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics;
import java.util.concurrent.TimeUnit;

/**
 * One connection's {@link ResponderMetrics}: counts into its event loop's {@link LoopCounts}, records sampled
 * latency, and reports leases and its close to {@link SluiceMetrics}' shared meters.
 */
final class ConnectionRecorder implements ResponderMetrics {

    private final SluiceMetrics metrics;
    private final RequestMeters meters;
    private LoopCounts counts;

    ConnectionRecorder(SluiceMetrics metrics, RequestMeters meters) {
        this.metrics = metrics;
        this.meters = meters;
        this.counts = meters.loop();
    }

    /** This thread's counts: the connection's event loop, so the lookup happens once per connection. */
    private LoopCounts counts() {
        LoopCounts c = counts;
        if (c.owner != Thread.currentThread()) {
            c = meters.loop();
            counts = c;
        }
        return c;
    }

    @Override
    public boolean timeNext() {
        return counts().timeNext();
    }

    @Override
    public void onResponse(RequestType type, Outcome outcome, String reason, long latencyNanos) {
        LoopCounts c = counts();
        c.increment(RequestMeters.outcomeSlot(type, outcome));
        if (outcome == Outcome.REJECTED) {
            c.increment(RequestMeters.reasonSlot(type, reason));
        }
        if (latencyNanos >= 0 && type != RequestType.FIRE_AND_FORGET) {
            meters.latency(type).record(latencyNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void onLeaseSent(int permits) {
        metrics.leaseSent(permits);
    }

    @Override
    public void onLeaseEnded(int usedPermits, int unusedPermits) {
        metrics.leaseEnded(usedPermits, unusedPermits);
    }

    @Override
    public void onClose() {
        metrics.connectionClosed();
    }
}
