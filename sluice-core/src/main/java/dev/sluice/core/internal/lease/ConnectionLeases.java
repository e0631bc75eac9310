package dev.sluice.core.internal.lease;

import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import dev.sluice.core.internal.metrics.RequestMetering;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.SignalType;

/**
 * Leasing on one connection, both ways: what this side's responder leased to the peer (and enforces), what the
 * peer leased to this side's requester (and its availability), the stats recorder that watches the responder and
 * the subscription to this side's lease sender. Exists only when SETUP negotiated leasing.
 *
 * <p>Event-loop confined, except {@link #availability}, which any thread may read. Time comes from the
 * connection's clock.
 */
public final class ConnectionLeases {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLeases.class);

    /** Where a lease of this side goes out: the connection writes the LEASE frame. */
    public interface Sender {
        /** Writes a LEASE frame unless the connection is closing; returns whether it was written. */
        boolean sendLease(Lease lease);
    }

    private final RequesterLeaseTracker requester = new RequesterLeaseTracker();
    private final ResponderLeaseTracker responder = new ResponderLeaseTracker();
    private final LongSupplier clock;
    private final boolean strict;
    private final StatsRecorder<Object> stats;
    private final Disposable sender;
    private final RequestMetering metering;
    private String lastRejection;

    /**
     * Starts sending this side's leases: each one the {@code leases} publisher emits is handed to {@code send} on
     * the event loop (through {@code onLoop}).
     *
     * @param strict   a request of this side without a lease permit fails locally instead of being sent
     * @param metering hears of the leases sent and how they were used; null when nobody listens
     */
    @SuppressWarnings("unchecked")
    public ConnectionLeases(Leases leases, LongSupplier clock, boolean strict, Sender send,
                            Consumer<Runnable> onLoop, RequestMetering metering) {
        this.clock = clock;
        this.strict = strict;
        this.stats = (StatsRecorder<Object>) leases.stats();
        this.metering = metering;
        this.sender = leases.leases().subscribe(
            lease -> onLoop.accept(() -> {
                if (send.sendLease(lease)) {
                    endLease();
                    responder.onLeaseSent(clock.getAsLong(), lease.ttlMillis(), lease.allowedRequests());
                    if (metering != null) {
                        metering.leaseSent(lease.allowedRequests());
                    }
                }
            }),
            e -> log.warn("lease sender failed; no more leases will be sent", e));
    }

    /** A LEASE frame arrived from the peer. */
    public void onLeaseReceived(long ttlMillis, int numberOfRequests) {
        requester.onLease(clock.getAsLong(), (int) Math.min(ttlMillis, Integer.MAX_VALUE), numberOfRequests);
    }

    /**
     * Takes this side's permit for a request about to be sent.
     *
     * @return null to send it (with a permit, or without one when not strict, for the responder to decide), or
     *         the reason it must fail locally
     */
    public String refuseRequest() {
        String noPermit = requester.use(clock.getAsLong());
        return noPermit != null && strict ? noPermit + " (strict requester lease: not sent)" : null;
    }

    /** remaining / allowed of the peer's last lease; 0.0 when none or expired. Any thread. */
    public double availability() {
        return requester.availability(clock.getAsLong());
    }

    /**
     * Applies this side's lease to a request whose first frame just arrived: reports it to the stats recorder and
     * takes a permit. One permit per request, never per fragment.
     *
     * @param metadata the request's metadata (borrowed, for the recorder's call name); empty when absent
     * @return the observer of the accepted request's response, or null when it is rejected: the reason is then
     *         {@link #lastRejection} ({@code lease_expired} / {@code lease_exhausted}), and the recorder has heard
     *         that the response ended
     */
    public ResponderObserver admit(RequestType type, ByteBuf metadata) {
        long now = clock.getAsLong();
        Object call = stats == null ? null : stats.onRequestStarted(type, metadata);
        lastRejection = responder.tryAcquire(now);
        if (lastRejection != null) {
            if (stats != null) {
                stats.onResponseStarted(type, call, SignalType.ON_ERROR, 0, true);
                stats.onResponseTerminated(type, call, SignalType.ON_ERROR);
            }
            return null;
        }
        return stats == null ? ResponderObserver.NOOP : new StatsObserver(stats, type, call, now, clock);
    }

    /** Why {@link #admit} last returned null. */
    public String lastRejection() {
        return lastRejection;
    }

    /** Reports how the lease that is about to be replaced (or the last one, at close) was used. */
    private void endLease() {
        if (metering != null && responder.leased()) {
            metering.leaseEnded(responder.usedPermits(), responder.unusedPermits());
        }
    }

    /** The connection closed: no more leases are sent, and the recorder hears of it. */
    public void close() {
        sender.dispose();
        endLease();
        if (stats != null) {
            try {
                stats.onConnectionClosed();
            } catch (Throwable t) {
                log.warn("stats recorder failed on close", t);
            }
        }
    }
}
