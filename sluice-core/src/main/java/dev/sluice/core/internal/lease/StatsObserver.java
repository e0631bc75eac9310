package dev.sluice.core.internal.lease;

import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import java.util.function.LongSupplier;
import reactor.core.publisher.SignalType;

/** Feeds one accepted request's response signals to the connection's {@link StatsRecorder}, with latency. */
public final class StatsObserver implements ResponderObserver {

    private final StatsRecorder<Object> stats;
    private final RequestType type;
    private final Object call;
    private final long startNanos;
    private final LongSupplier clock;

    public StatsObserver(StatsRecorder<Object> stats, RequestType type, Object call, long startNanos,
                         LongSupplier clock) {
        this.stats = stats;
        this.type = type;
        this.call = call;
        this.startNanos = startNanos;
        this.clock = clock;
    }

    @Override
    public void onFirstSignal(int streamId, int signal) {
        stats.onResponseStarted(type, call, signalType(signal), clock.getAsLong() - startNanos, false);
    }

    @Override
    public void onTerminated(int streamId, int signal) {
        stats.onResponseTerminated(type, call, signalType(signal));
    }

    static SignalType signalType(int signal) {
        return switch (signal) {
            case NEXT -> SignalType.ON_NEXT;
            case COMPLETE -> SignalType.ON_COMPLETE;
            case ERROR -> SignalType.ON_ERROR;
            default -> SignalType.CANCEL;
        };
    }
}
