package dev.sluice.cli.load.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.RejectedException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.LongSupplier;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * One request-response of a ramp: subscribes to the answer and counts its outcome in its step's {@link StepTally}
 * — a success, ERROR[REJECTED] under its message, any other error under its cause — or, if {@link #expire} comes
 * first, a timeout, after which the request is cancelled. Exactly one outcome is counted.
 *
 * <p>Thread-safe: the answer arrives on the connection's event loop, {@link #expire} comes from the closer. An
 * answer that comes after the expiry is released and ignored.
 */
public final class RampRequest extends BaseSubscriber<Payload> {

    private static final int MAX_CAUSE_CHARS = 160;
    private static final AtomicIntegerFieldUpdater<RampRequest> SETTLED =
        AtomicIntegerFieldUpdater.newUpdater(RampRequest.class, "settled");

    private final StepTally tally;
    private final int step;
    private final long intendedNanos;
    private final long deadlineNanos;
    private final LongSupplier nanoClock;
    private final Listener listener;
    private volatile int settled;

    /** Told of each request settled, with its step and the step's settled count after it. */
    @FunctionalInterface
    public interface Listener {
        void settled(int step, long settledInStep);
    }

    /**
     * @param tally where the outcome is counted
     * @param step the step it belongs to
     * @param intendedNanos when it was due, ns on {@code nanoClock}; latencies count from here
     * @param deadlineNanos when it times out, ns on {@code nanoClock}
     * @param listener told once, after the outcome is counted
     */
    public RampRequest(StepTally tally, int step, long intendedNanos, long deadlineNanos, LongSupplier nanoClock,
                       Listener listener) {
        this.tally = tally;
        this.step = step;
        this.intendedNanos = intendedNanos;
        this.deadlineNanos = deadlineNanos;
        this.nanoClock = nanoClock;
        this.listener = listener;
    }

    /** When this request times out, ns. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** Whether its outcome is counted. */
    public boolean isSettled() {
        return settled != 0;
    }

    /** Counts a timeout unless an outcome was counted, then cancels the request (which sends CANCEL). */
    public void expire() {
        if (settle()) {
            listener.settled(step, tally.timeout(sinceDue()));
        }
        cancel();
    }

    /** Counts a failure raised before the request could be subscribed (the requester threw). */
    public void failNow(Throwable error) {
        if (settle()) {
            listener.settled(step, tally.failure(cause(error), sinceDue()));
        }
    }

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        subscription.request(1);
    }

    @Override
    protected void hookOnNext(Payload payload) {
        payload.release();
        if (settle()) {
            listener.settled(step, tally.success(sinceDue()));
        }
    }

    @Override
    protected void hookOnComplete() {
        // After onNext this finds the outcome counted; alone, it is an empty answer, still an answer.
        if (settle()) {
            listener.settled(step, tally.success(sinceDue()));
        }
    }

    @Override
    protected void hookOnError(Throwable error) {
        if (!settle()) {
            return;
        }
        long micros = sinceDue();
        long n = error instanceof RejectedException
            ? tally.rejection(String.valueOf(error.getMessage()), micros) : tally.failure(cause(error), micros);
        listener.settled(step, n);
    }

    private boolean settle() {
        return SETTLED.compareAndSet(this, 0, 1);
    }

    private long sinceDue() {
        return Math.max(0, (nanoClock.getAsLong() - intendedNanos) / 1000);
    }

    /** "ExceptionName: message", short enough to be a key. */
    static String cause(Throwable error) {
        String s = error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return s.length() <= MAX_CAUSE_CHARS ? s : s.substring(0, MAX_CAUSE_CHARS - 1) + "…";
    }
}
