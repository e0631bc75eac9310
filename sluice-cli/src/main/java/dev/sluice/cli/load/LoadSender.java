package dev.sluice.cli.load;

import dev.sluice.cli.load.internal.PendingRequest;
import dev.sluice.cli.load.internal.RampSchedule;
import dev.sluice.cli.load.internal.StepTally;
import dev.sluice.cli.load.internal.Tally;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The sender thread of a {@link LoadGenerator} run: parks until the next request's intended send time and fires
 * every request that is due, never waiting for an answer (the generator's open loop). Each request is tracked in the
 * run's in-flight set (and, with a timeout, its deadline queue) before it can settle, so that the closer always sees
 * it; the closer is woken when the deadline queue gets a head and when sending ends.
 *
 * <p>What it reports is read by the closer: {@link #fired()} and {@link #done()} at any time (the step a request
 * was due in is over for the sender once it is past the step's last index); the rest once {@link #done()}, or after
 * joining the thread.
 */
final class LoadSender implements Runnable {

    private final RSocket target;
    private final byte[] data;
    private final RampSchedule schedule;
    private final Tally seconds;
    private final StepTally[] steps;
    /** Null: requests have no timeout of their own. */
    private final Duration timeout;
    private final LongSupplier nanoClock;
    private final Set<PendingRequest> inFlight;
    private final Queue<PendingRequest> deadlines;
    private final PendingRequest.Listener onSettled;
    private final AtomicBoolean stopped;
    private final Thread closer;

    private volatile boolean senderDone;
    /** Requests fired so far: the sender is past every step whose last index is below it. */
    private volatile long fired;
    /** When the sender stopped, ns; written before {@code senderDone}. */
    private volatile long sendEnd;
    // Written by the sender, read by the closer after joining it.
    private long lastSendNanos;
    private long maxLagNanos;
    private Throwable senderFailure;

    /**
     * @param data the data of every request
     * @param inFlight where each request sent is tracked until it settles
     * @param deadlines with a timeout, where each request sent is queued, in send order (so deadline order)
     * @param stopped set to stop sending; whoever sets it unparks the sender thread
     * @param closer the thread to wake when {@code deadlines} gets a head and when sending ends
     */
    LoadSender(RSocket target, byte[] data, RampSchedule schedule, Tally seconds, StepTally[] steps, Duration timeout,
            LongSupplier nanoClock, Set<PendingRequest> inFlight, Queue<PendingRequest> deadlines,
            PendingRequest.Listener onSettled, AtomicBoolean stopped, Thread closer) {
        this.target = target;
        this.data = data;
        this.schedule = schedule;
        this.seconds = seconds;
        this.steps = steps;
        this.timeout = timeout;
        this.nanoClock = nanoClock;
        this.inFlight = inFlight;
        this.deadlines = deadlines;
        this.onSettled = onSettled;
        this.stopped = stopped;
        this.closer = closer;
    }

    /** Requests fired so far. */
    long fired() {
        return fired;
    }

    /** Whether the sender has stopped: all sent, told to stop, or failed. */
    boolean done() {
        return senderDone;
    }

    /** When the sender stopped, ns; once {@link #done()}. */
    long sendEnd() {
        return sendEnd;
    }

    /** When the last request was fired, ns; after joining the sender. */
    long lastSendNanos() {
        return lastSendNanos;
    }

    /** The most a request was fired after its intended time, ns; after joining the sender. */
    long maxLagNanos() {
        return maxLagNanos;
    }

    /** What the sender failed with, or null; after joining the sender. */
    Throwable failure() {
        return senderFailure;
    }

    /** The sender thread: fires every due request, parks until the next one is due. */
    @Override
    public void run() {
        long next = 0;
        long total = schedule.total();
        int step = 0;
        try {
            while (next < total && !stopped.get()) {
                long now = nanoClock.getAsLong();
                long due = schedule.dueCount(now);
                if (next >= due) {
                    LockSupport.parkNanos(this, schedule.intendedNanos(next) - now);
                    continue;
                }
                // Behind or on time: fire everything due, never waiting for an answer.
                for (; next < due && !stopped.get(); next++) {
                    while (next >= schedule.firstIndex(step + 1)) {
                        step++;
                    }
                    long intended = schedule.intendedNanos(next);
                    fire(step, intended);
                    fired = next + 1;
                    long sentAt = nanoClock.getAsLong();
                    lastSendNanos = sentAt;
                    maxLagNanos = Math.max(maxLagNanos, sentAt - intended);
                }
            }
        } catch (Throwable e) {
            senderFailure = e;
        } finally {
            sendEnd = nanoClock.getAsLong();
            senderDone = true;
            LockSupport.unpark(closer);
        }
    }

    private void fire(int step, long intendedNanos) {
        long deadline = timeout == null ? Long.MAX_VALUE : intendedNanos + timeout.toNanos();
        PendingRequest request = new PendingRequest(seconds, steps[step], step, intendedNanos, deadline, nanoClock,
            onSettled);
        // Tracked before it can settle, so that the closer always sees it.
        inFlight.add(request);
        steps[step].sent();
        seconds.sent();
        if (timeout != null) {
            // The closer parks until the head's deadline: wake it if there was no head.
            boolean wasEmpty = deadlines.isEmpty();
            deadlines.add(request);
            if (wasEmpty) {
                LockSupport.unpark(closer);
            }
        }
        try {
            Payload payload = Payload.create(data.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data));
            target.requestResponse(payload).subscribe(request);
        } catch (RuntimeException e) {
            request.failNow(e);
        }
    }
}
