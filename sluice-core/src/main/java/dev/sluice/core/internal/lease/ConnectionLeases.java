package dev.sluice.core.internal.lease;

import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.metrics.RequestMetering;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
 * <p>A request of this side that finds no permit waits for one (see {@link #permit}), when waiting is on: in
 * order, up to {@code maxPending} requests for up to {@code maxWait} each, then refused here with
 * {@code lease_exhausted}.
 *
 * <p>Event-loop confined, except {@link #availability}, which any thread may read. Time comes from the
 * connection's clock.
 */
public final class ConnectionLeases {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLeases.class);

    /**
     * What {@link #permit} returns for a request that now waits for a lease: its start task will be run again. Never
     * handed to a subscriber.
     */
    public static final RuntimeException WAITING = new WaitingForLease();

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
    private final LeaseWaits waits;
    private final ScheduledExecutorService timer;
    private ScheduledFuture<?> waitTimer;
    /** The waiting request whose start task runs again now, and why it must fail (null: it takes its permit). */
    private Runnable resuming;
    private RuntimeException resumingRefusal;
    private String lastRejection;

    /**
     * Starts sending this side's leases: each one the {@code leases} publisher emits is handed to {@code send} on
     * the event loop (through {@code onLoop}).
     *
     * @param strict     without waiting, a request of this side without a lease permit fails locally instead of
     *                   being sent
     * @param maxPending requests of this side that may wait for a permit at once; 0: none waits
     * @param maxWait    how long each may wait, nanoseconds
     * @param timer      the event loop, which ends the waits that run out
     * @param metering   hears of the leases sent and how they were used; null when nobody listens
     */
    @SuppressWarnings("unchecked")
    public ConnectionLeases(Leases leases, LongSupplier clock, boolean strict, int maxPending, long maxWait,
                            Sender send, Consumer<Runnable> onLoop, ScheduledExecutorService timer,
                            RequestMetering metering) {
        this.clock = clock;
        this.strict = strict;
        this.waits = new LeaseWaits(maxPending, maxWait);
        this.timer = timer;
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

    /** A LEASE frame arrived from the peer: the requests waiting for it go, as far as it allows. */
    public void onLeaseReceived(long ttlMillis, int numberOfRequests) {
        requester.onLease(clock.getAsLong(), (int) Math.min(ttlMillis, Integer.MAX_VALUE), numberOfRequests);
        resumeWaiting();
    }

    /**
     * Takes this side's permit for a request about to be sent, whose start task is {@code start}.
     *
     * @return null to send it (with a permit, or without one when neither waiting nor strict, for the responder
     *         to decide); {@link #WAITING} when it now waits for a permit: {@code start} is run again when one is
     *         there or the wait is over, and calls this again; or why it must fail locally
     */
    public RuntimeException permit(Runnable start) {
        long now = clock.getAsLong();
        if (start == resuming) {
            resuming = null;
            if (resumingRefusal != null) {
                return resumingRefusal;
            }
            if (requester.use(now) == null) {
                return null;
            }
        }
        if (waits.isEmpty()) {
            String noPermit = requester.use(now);
            if (noPermit == null) {
                return null;
            }
            if (!waits.enabled()) {
                return strict ? new RejectedException(noPermit + " (strict requester lease: not sent)") : null;
            }
        }
        if (waits.isFull()) {
            return new RejectedException(ResponderLeaseTracker.EXHAUSTED + " (" + waits.maxPending()
                + " requests already wait for a lease permit: not sent)");
        }
        waits.add(start, now);
        if (waitTimer == null) {
            scheduleWaitTimer(now);
        }
        return WAITING;
    }

    /**
     * Runs again, in order, the start tasks of the waiting requests that a permit is there for, and of those whose
     * wait is over (they fail); then times the next wait's end.
     */
    private void resumeWaiting() {
        while (!waits.isEmpty()) {
            long now = clock.getAsLong();
            RuntimeException refusal;
            if (requester.hasPermit(now)) {
                refusal = null;
            } else if (now - waits.firstDeadline() >= 0) {
                refusal = new RejectedException(ResponderLeaseTracker.EXHAUSTED + " (no lease permit within "
                    + waits.maxWaitNanos() / 1_000_000 + " ms: not sent)");
            } else {
                break;
            }
            resume(waits.poll(), refusal);
        }
        if (waitTimer != null) {
            waitTimer.cancel(false);
            waitTimer = null;
        }
        if (!waits.isEmpty()) {
            scheduleWaitTimer(clock.getAsLong());
        }
    }

    private void resume(Runnable start, RuntimeException refusal) {
        resuming = start;
        resumingRefusal = refusal;
        try {
            start.run();
        } catch (Throwable t) {
            log.warn("a request waiting for a lease failed to start", t);
        } finally {
            // A request cancelled while it waited does not ask for its permit.
            resuming = null;
            resumingRefusal = null;
        }
    }

    private void scheduleWaitTimer(long nowNanos) {
        waitTimer = timer.schedule(() -> {
            waitTimer = null;
            resumeWaiting();
        }, Math.max(0, waits.firstDeadline() - nowNanos), TimeUnit.NANOSECONDS);
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

    /**
     * The connection closed: no more leases are sent, the requests waiting for one are started again (to find the
     * connection closed), and the recorder hears of it.
     */
    public void close() {
        sender.dispose();
        if (waitTimer != null) {
            waitTimer.cancel(false);
            waitTimer = null;
        }
        while (!waits.isEmpty()) {
            resume(waits.poll(), null);
        }
        endLease();
        if (stats != null) {
            try {
                stats.onConnectionClosed();
            } catch (Throwable t) {
                log.warn("stats recorder failed on close", t);
            }
        }
    }

    /** The {@link #WAITING} marker: no stack, never thrown. */
    private static final class WaitingForLease extends RuntimeException {
        WaitingForLease() {
            super("the request waits for a lease permit", null, false, false);
        }
    }
}
