package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.Demand;
import dev.sluice.frame.FrameType;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The requester side of request-stream: the {@code Flux}, its subscription, the registry entry and the task that
 * sends demand, in one object.
 *
 * <p>Demand from any thread accumulates (saturating) in {@code pending}; the caller that raises it from 0 queues
 * this task, which sends it as the REQUEST_STREAM's initial n, or later as REQUEST_N, so that bursts of
 * {@code request(1)} coalesce into one frame. {@code outstanding} (event loop only) counts credits the peer has
 * not used yet: a payload beyond them fails the stream instead of being buffered.
 */
final class RequesterRequestStream extends Flux<Payload> implements Subscription, Runnable, Stream {

    private static final int NEW = 0;
    private static final int SUBSCRIBED = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;
    private static final AtomicIntegerFieldUpdater<RequesterRequestStream> STATE =
        AtomicIntegerFieldUpdater.newUpdater(RequesterRequestStream.class, "state");
    private static final AtomicLongFieldUpdater<RequesterRequestStream> PENDING =
        AtomicLongFieldUpdater.newUpdater(RequesterRequestStream.class, "pending");

    private final RSocketConnection connection;
    private Payload payload;
    private CoreSubscriber<? super Payload> actual;
    private volatile int state;
    private volatile long pending;
    // Event-loop confined:
    private int streamId;
    private boolean started;
    private long outstanding;

    RequesterRequestStream(RSocketConnection connection, Payload payload) {
        this.connection = connection;
        this.payload = payload;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (!STATE.compareAndSet(this, NEW, SUBSCRIBED)) {
            Operators.error(subscriber, new IllegalStateException("a request-stream Flux allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            cancel();
            actual.onError(Operators.onOperatorError(new IllegalArgumentException(
                "request(n) needs n > 0 (Reactive Streams rule 3.9), got " + n), actual.currentContext()));
            return;
        }
        for (;;) {
            long p = pending;
            long next = Demand.add(p, n);
            if (PENDING.compareAndSet(this, p, next)) {
                if (p == 0) {
                    connection.execute(this);
                }
                return;
            }
        }
    }

    /** Sends accumulated demand, on the event loop. */
    @Override
    public void run() {
        if (state != SUBSCRIBED) {
            releasePayload();
            return;
        }
        long n = PENDING.getAndSet(this, 0);
        if (n == 0) {
            return;
        }
        if (started) {
            if (outstanding != Long.MAX_VALUE) {
                outstanding = Demand.grant(outstanding, n);
                connection.writeRequestN(streamId, n);
            }
            return;
        }
        started = true;
        Payload p = payload;
        payload = null;
        Throwable refused = connection.refuseNewRequest();
        int id = refused == null ? connection.register(this) : -1;
        if (id < 0) {
            p.release();
            fail(refused != null ? refused : connection.streamIdsExhausted());
            return;
        }
        streamId = id;
        outstanding = Demand.grant(0, n);
        try {
            connection.writer().writePayloadBearing(FrameType.REQUEST_STREAM, id, 0, n,
                Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
    }

    @Override
    public void cancel() {
        if (STATE.compareAndSet(this, SUBSCRIBED, CANCELLED)) {
            connection.execute(this::cancelOnLoop);
        }
    }

    private void cancelOnLoop() {
        releasePayload();
        if (started && connection.remove(streamId, this)) {
            connection.writeCancel(streamId);
        }
    }

    private void releasePayload() {
        Payload p = payload;
        if (p != null) {
            payload = null;
            p.release();
        }
    }

    private void fail(Throwable t) {
        if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
            actual.onError(t);
        }
    }

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        if (state != SUBSCRIBED) {
            p.release();
            return;
        }
        if (outstanding == 0) {
            p.release();
            connection.remove(streamId, this);
            connection.writeCancel(streamId);
            fail(new dev.sluice.core.exceptions.InvalidException("peer sent more payloads than requested on stream "
                + streamId + "; stream cancelled"));
            return;
        }
        if (outstanding != Long.MAX_VALUE) {
            outstanding--;
        }
        actual.onNext(p);
        if (complete) {
            onCompleteFrame();
        }
    }

    @Override
    public void onCompleteFrame() {
        connection.remove(streamId, this);
        if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
            actual.onComplete();
        }
    }

    @Override
    public void onErrorFrame(RSocketErrorException error) {
        connection.remove(streamId, this);
        fail(error);
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        fail(cause);
    }
}
