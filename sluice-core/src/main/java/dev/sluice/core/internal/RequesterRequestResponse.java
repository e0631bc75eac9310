package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.FrameType;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * The requester side of request-response: one object is the {@code Mono}, its subscription, the stream in the
 * registry and the task that starts it, so that a request costs a single allocation besides its frame.
 *
 * <p>States move by CAS, because subscribe/request/cancel may come from any thread while frames arrive on the
 * event loop: NEW → SUBSCRIBED → REQUESTED (start task queued) → STARTED (frame written) → DONE, or → CANCELLED
 * from any state before DONE.
 */
final class RequesterRequestResponse extends Mono<Payload> implements Subscription, Runnable, Stream {

    private static final int NEW = 0;
    private static final int SUBSCRIBED = 1;
    private static final int REQUESTED = 2;
    private static final int STARTED = 3;
    private static final int DONE = 4;
    private static final int CANCELLED = 5;
    private static final AtomicIntegerFieldUpdater<RequesterRequestResponse> STATE =
        AtomicIntegerFieldUpdater.newUpdater(RequesterRequestResponse.class, "state");

    private final RSocketConnection connection;
    private Payload payload;
    private CoreSubscriber<? super Payload> actual;
    private volatile int state;
    private int streamId;

    RequesterRequestResponse(RSocketConnection connection, Payload payload) {
        this.connection = connection;
        this.payload = payload;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (!STATE.compareAndSet(this, NEW, SUBSCRIBED)) {
            Operators.error(subscriber, new IllegalStateException("a request-response Mono allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
    }

    @Override
    public void request(long n) {
        if (n > 0 && STATE.compareAndSet(this, SUBSCRIBED, REQUESTED)) {
            connection.execute(this);
        }
    }

    /** Starts the stream on the event loop. */
    @Override
    public void run() {
        if (!STATE.compareAndSet(this, REQUESTED, STARTED)) {
            return;
        }
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
        try {
            connection.writer().writePayloadBearing(FrameType.REQUEST_RESPONSE, id, 0, 0,
                Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
    }

    @Override
    public void cancel() {
        for (;;) {
            int s = state;
            if (s == DONE || s == CANCELLED) {
                return;
            }
            if (STATE.compareAndSet(this, s, CANCELLED)) {
                if (s == STARTED) {
                    connection.execute(this::cancelFromRequester);
                } else if (s != NEW) {
                    Payload p = payload;
                    payload = null;
                    if (p != null) {
                        p.release();
                    }
                }
                return;
            }
        }
    }

    private void fail(Throwable t) {
        if (STATE.compareAndSet(this, STARTED, DONE)) {
            actual.onError(t);
        }
    }

    private void cancelFromRequester() {
        if (connection.remove(streamId, this)) {
            connection.writeCancel(streamId);
        }
    }

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        // A response without COMPLETE is treated as complete, as the spec requires for request-response.
        connection.remove(streamId, this);
        if (STATE.compareAndSet(this, STARTED, DONE)) {
            actual.onNext(p);
            actual.onComplete();
        } else {
            p.release();
        }
    }

    @Override
    public void onCompleteFrame() {
        connection.remove(streamId, this);
        if (STATE.compareAndSet(this, STARTED, DONE)) {
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
