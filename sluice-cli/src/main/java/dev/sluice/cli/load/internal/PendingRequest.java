package dev.sluice.cli.load.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RejectedException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.LongSupplier;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * One request-response of a load run, from its send to its outcome: subscribes to the answer and counts the outcome
 * twice — in the {@link Tally} of the second in which it comes, and in the {@link StepTally} of the step in which the
 * request was due. The outcome is a success (a response, counted per second under the answering server's name, the
 * response data), a rejection (ERROR[REJECTED], under its message), a failure (any other error, under its cause),
 * a timeout ({@link #timeOut()} at its deadline, then cancelled) or a failure for a cause the run gives
 * ({@link #abandon}, then cancelled). Exactly one outcome is counted, whichever comes first.
 *
 * <p>Thread-safe: the answer arrives on the connection's event loop, timeouts and abandonment come from the run's
 * closer. An answer that arrives after either is released and ignored. Latencies are in microseconds from the
 * intended send time.
 */
public final class PendingRequest extends BaseSubscriber<Payload> implements TrackedRequest {

    /** Response data longer than this is cut, so a server echoing large payloads does not blow up the keys. */
    static final int MAX_SERVER_KEY_BYTES = 64;
    /** The server key of a request-response that completed without a payload. */
    static final String EMPTY_RESPONSE = "(empty)";
    private static final int MAX_CAUSE_CHARS = 160;

    private static final AtomicIntegerFieldUpdater<PendingRequest> SETTLED =
        AtomicIntegerFieldUpdater.newUpdater(PendingRequest.class, "settled");

    private final Tally seconds;
    private final StepTally step;
    private final int stepIndex;
    private final long intendedNanos;
    private final long deadlineNanos;
    private final LongSupplier nanoClock;
    private final Listener listener;
    private volatile int settled;

    /** Told of each request settled, once its outcome is counted in both tallies. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param request the request settled
         * @param step the index of the step it was due in
         * @param settledInStep how many requests of that step are settled, this one included
         */
        void settled(PendingRequest request, int step, long settledInStep);
    }

    /**
     * @param seconds where the outcome is counted by the second it comes in
     * @param step where the outcome is counted by the step the request was due in
     * @param stepIndex that step's index
     * @param intendedNanos when the request was due, ns on {@code nanoClock}; latencies count from here
     * @param deadlineNanos when it times out, ns on {@code nanoClock} (for the closer, which calls {@link #timeOut})
     * @param nanoClock the clock of both tallies
     * @param listener told once, after the outcome is counted
     */
    public PendingRequest(Tally seconds, StepTally step, int stepIndex, long intendedNanos, long deadlineNanos,
                          LongSupplier nanoClock, Listener listener) {
        this.seconds = seconds;
        this.step = step;
        this.stepIndex = stepIndex;
        this.intendedNanos = intendedNanos;
        this.deadlineNanos = deadlineNanos;
        this.nanoClock = nanoClock;
        this.listener = listener;
    }

    @Override
    public long intendedNanos() {
        return intendedNanos;
    }

    /** When this request times out, ns. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public boolean settle() {
        return SETTLED.compareAndSet(this, 0, 1);
    }

    /** Whether its outcome is counted (or being counted). */
    public boolean isSettled() {
        return settled != 0;
    }

    /** Counts a timeout unless an outcome was counted, then cancels the request (which sends CANCEL). */
    public void timeOut() {
        if (seconds.fail(this)) {
            listener.settled(this, stepIndex, step.timeout(sinceDue()));
        }
        cancel();
    }

    /** Counts a failure for {@code cause} unless an outcome was counted, then cancels the request. */
    public void abandon(String cause) {
        if (seconds.fail(this)) {
            listener.settled(this, stepIndex, step.failure(cause, sinceDue()));
        }
        cancel();
    }

    /** Counts a failure raised before the request could be subscribed (the requester threw). */
    public void failNow(Throwable error) {
        if (seconds.fail(this)) {
            listener.settled(this, stepIndex, step.failure(cause(error), sinceDue()));
        }
    }

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        subscription.request(1);
    }

    @Override
    protected void hookOnNext(Payload payload) {
        String server;
        try {
            server = serverKey(payload.data());
        } finally {
            payload.release();
        }
        if (seconds.respond(this, server)) {
            listener.settled(this, stepIndex, step.success(sinceDue()));
        }
    }

    @Override
    protected void hookOnComplete() {
        // After onNext this finds the outcome counted; alone, it is an empty answer, still an answer.
        if (seconds.respond(this, EMPTY_RESPONSE)) {
            listener.settled(this, stepIndex, step.success(sinceDue()));
        }
    }

    @Override
    protected void hookOnError(Throwable error) {
        if (error instanceof RejectedException) {
            if (seconds.reject(this)) {
                listener.settled(this, stepIndex, step.rejection(String.valueOf(error.getMessage()), sinceDue()));
            }
        } else if (seconds.fail(this)) {
            listener.settled(this, stepIndex, step.failure(cause(error), sinceDue()));
        }
    }

    private long sinceDue() {
        return Math.max(0, (nanoClock.getAsLong() - intendedNanos) / 1000);
    }

    static String serverKey(ByteBuf data) {
        int n = data.readableBytes();
        if (n == 0) {
            return EMPTY_RESPONSE;
        }
        if (n <= MAX_SERVER_KEY_BYTES) {
            return data.toString(StandardCharsets.UTF_8);
        }
        return data.toString(data.readerIndex(), MAX_SERVER_KEY_BYTES, StandardCharsets.UTF_8) + "…";
    }

    /** "ExceptionName: message", short enough to be a key. */
    static String cause(Throwable error) {
        String s = error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return s.length() <= MAX_CAUSE_CHARS ? s : s.substring(0, MAX_CAUSE_CHARS - 1) + "…";
    }
}
