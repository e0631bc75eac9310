package dev.sluice.core.internal.metrics;

import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics;
import dev.sluice.core.internal.lease.ResponderObserver;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's {@link ResponderMetrics}, as the responder uses it: an observer per admitted request (shared
 * unless the request is timed, so an untimed request allocates nothing), and the refusals and leases reported
 * directly. Event-loop confined. A recorder that throws is logged once and never breaks a request.
 */
public final class RequestMetering {

    private static final Logger log = LoggerFactory.getLogger(RequestMetering.class);
    private static volatile boolean failureLogged;

    private final ResponderMetrics metrics;
    private final LongSupplier clock;
    private final MetricsObserver[] untimed = new MetricsObserver[RequestType.values().length];

    public RequestMetering(ResponderMetrics metrics, LongSupplier clock) {
        this.metrics = metrics;
        this.clock = clock;
        for (RequestType t : RequestType.values()) {
            untimed[t.ordinal()] = MetricsObserver.untimed(metrics, t);
        }
    }

    /** The observer of a request of {@code type} that was just admitted. */
    public ResponderObserver admit(RequestType type) {
        boolean timed;
        try {
            timed = metrics.timeNext();
        } catch (Throwable t) {
            failed(t);
            timed = false;
        }
        return timed ? new MetricsObserver(metrics, type, clock, clock.getAsLong()) : untimed[type.ordinal()];
    }

    /** A request of {@code type} was refused before any handler saw it. */
    public void rejected(RequestType type, String reason) {
        report(metrics, type, ResponderMetrics.Outcome.REJECTED, reason, -1);
    }

    public void leaseSent(int permits) {
        try {
            metrics.onLeaseSent(permits);
        } catch (Throwable t) {
            failed(t);
        }
    }

    public void leaseEnded(int used, int unused) {
        try {
            metrics.onLeaseEnded(used, unused);
        } catch (Throwable t) {
            failed(t);
        }
    }

    public void close() {
        try {
            metrics.onClose();
        } catch (Throwable t) {
            failed(t);
        }
    }

    static void report(ResponderMetrics metrics, RequestType type, ResponderMetrics.Outcome outcome, String reason,
                       long latencyNanos) {
        try {
            metrics.onResponse(type, outcome, reason, latencyNanos);
        } catch (Throwable t) {
            failed(t);
        }
    }

    private static void failed(Throwable t) {
        if (!failureLogged) {
            failureLogged = true;
            log.warn("a ResponderMetrics callback failed; requests go on, further failures are not logged", t);
        }
    }
}
