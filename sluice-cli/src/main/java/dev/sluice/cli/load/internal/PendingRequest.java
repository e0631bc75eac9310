package dev.sluice.cli.load.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.RejectedException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Consumer;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * One request-response in flight: subscribes to the answer and counts its outcome in the {@link Tally} — a response
 * under the answering server's name (the response data), ERROR[REJECTED] as rejected, any other error as failed —
 * or, if {@link #expire} comes first, as failed for that cause. Exactly one of them is counted.
 *
 * <p>Thread-safe: the answer arrives on the connection's event loop, {@link #expire} comes from the closer. An
 * answer that arrives after expiry is released and ignored.
 */
public final class PendingRequest extends BaseSubscriber<Payload> implements TrackedRequest {

    /** Response data longer than this is cut, so a server echoing large payloads does not blow up the keys. */
    static final int MAX_SERVER_KEY_BYTES = 64;
    /** The server key of a request-response that completed without a payload. */
    static final String EMPTY_RESPONSE = "(empty)";
    private static final int MAX_CAUSE_CHARS = 160;

    private static final AtomicIntegerFieldUpdater<PendingRequest> SETTLED =
        AtomicIntegerFieldUpdater.newUpdater(PendingRequest.class, "settled");

    private final Tally tally;
    private final long intendedNanos;
    private final Consumer<PendingRequest> onSettled;
    private volatile int settled;

    /**
     * @param tally where the outcome is counted
     * @param intendedNanos when the request was due, ns on the tally's clock
     * @param onSettled called once, after this request's outcome was counted by this object
     */
    public PendingRequest(Tally tally, long intendedNanos, Consumer<PendingRequest> onSettled) {
        this.tally = tally;
        this.intendedNanos = intendedNanos;
        this.onSettled = onSettled;
    }

    @Override
    public long intendedNanos() {
        return intendedNanos;
    }

    @Override
    public boolean settle() {
        return SETTLED.compareAndSet(this, 0, 1);
    }

    /** Whether an outcome was counted. */
    public boolean isSettled() {
        return settled != 0;
    }

    /** Counts this request as failed for {@code cause} if nothing was counted yet, then cancels it. */
    public void expire(String cause) {
        if (tally.fail(this, cause)) {
            onSettled.accept(this);
        }
        cancel();
    }

    /** Counts a failure raised before the request could be subscribed (the requester threw). */
    public void failNow(Throwable error) {
        if (tally.fail(this, cause(error))) {
            onSettled.accept(this);
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
        if (tally.respond(this, server)) {
            onSettled.accept(this);
        }
    }

    @Override
    protected void hookOnComplete() {
        // After onNext this finds the outcome counted; alone, it is an empty answer, still an answer.
        if (tally.respond(this, EMPTY_RESPONSE)) {
            onSettled.accept(this);
        }
    }

    @Override
    protected void hookOnError(Throwable error) {
        boolean counted = error instanceof RejectedException ? tally.reject(this) : tally.fail(this, cause(error));
        if (counted) {
            onSettled.accept(this);
        }
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
