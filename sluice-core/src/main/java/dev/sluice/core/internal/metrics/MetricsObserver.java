package dev.sluice.core.internal.metrics;

import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics;
import dev.sluice.core.ResponderMetrics.Outcome;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.lease.ResponderObserver;
import java.util.function.LongSupplier;

/**
 * Turns one request's response signals into its {@link ResponderMetrics#onResponse} call. An untimed observer is
 * shared by every request of its type on the connection (the signals of one request arrive together on the event
 * loop, so the error noted in {@link #onError} is still this request's at {@link #onTerminated}); a timed one
 * belongs to one request and measures it.
 */
final class MetricsObserver implements ResponderObserver {

    private static final long UNTIMED = -1;

    private final ResponderMetrics metrics;
    private final RequestType type;
    private final LongSupplier clock;
    private final long startNanos;
    private long latencyNanos = UNTIMED;
    private String rejectedBecause;

    MetricsObserver(ResponderMetrics metrics, RequestType type, LongSupplier clock, long startNanos) {
        this.metrics = metrics;
        this.type = type;
        this.clock = clock;
        this.startNanos = startNanos;
    }

    /** An observer for every untimed request of {@code type}. */
    static MetricsObserver untimed(ResponderMetrics metrics, RequestType type) {
        return new MetricsObserver(metrics, type, null, UNTIMED);
    }

    @Override
    public void onFirstSignal(int streamId, int signal) {
        if (startNanos != UNTIMED) {
            latencyNanos = clock.getAsLong() - startNanos;
        }
    }

    @Override
    public void onError(int streamId, Throwable error) {
        if (error instanceof RejectedException) {
            rejectedBecause = error.getMessage();
        }
    }

    @Override
    public void onTerminated(int streamId, int signal) {
        String reason = rejectedBecause;
        rejectedBecause = null;
        Outcome outcome = switch (signal) {
            case ERROR -> reason != null ? Outcome.REJECTED : Outcome.ERROR;
            case CANCEL -> Outcome.CANCELED;
            default -> Outcome.SUCCESS;
        };
        RequestMetering.report(metrics, type, outcome, reason, latencyNanos);
    }
}
