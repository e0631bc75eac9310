package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.canSignal;
import static dev.sluice.core.internal.stream.StreamState.isFirstFrameSent;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * The requester side of request-response: one object is the {@code Mono}, its subscription, the registry entry
 * and the task that starts it, so that a request costs a single allocation besides its frame.
 *
 * <p>The first {@code request(n)} raises the state word's demand from 0 and queues this object on the event loop,
 * which sends REQUEST_RESPONSE unless a cancel got there first. The payload belongs to whoever moves the state:
 * the start task once it set FIRST_FRAME_SENT, else the cancel (see {@link #cancel}).
 */
public final class RequesterRequestResponse extends Mono<Payload> implements Subscription, Runnable, Stream {

    private static final AtomicLongFieldUpdater<RequesterRequestResponse> STATE =
        AtomicLongFieldUpdater.newUpdater(RequesterRequestResponse.class, "state");

    private final StreamHost host;
    private Payload payload;
    private CoreSubscriber<? super Payload> actual;
    private volatile long state;
    private int streamId;

    public RequesterRequestResponse(StreamHost host, Payload payload) {
        this.host = host;
        this.payload = payload;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (isSubscribed(StreamState.markSubscribed(STATE, this))) {
            Operators.error(subscriber, new IllegalStateException("a request-response Mono allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
    }

    @Override
    public void request(long n) {
        if (n > 0 && StreamState.wasIdle(StreamState.addDemand(STATE, this, n))) {
            host.startSoon(this);
        }
    }

    /** On the event loop: starts the stream, or drops it after a cancel (before or after the start). */
    @Override
    public void run() {
        long prev = StreamState.markFirstFrameSent(STATE, this);
        if (isFirstFrameSent(prev)) {
            if (StreamState.isCancelled(prev) && host.remove(streamId, this)) {
                host.writeCancel(streamId);
            }
            return;
        }
        Payload p = payload;
        payload = null;
        if (!canSignal(prev)) {
            p.release();
            return;
        }
        Throwable refused = host.refuseNewRequest();
        int id = refused == null ? host.register(this) : -1;
        if (id < 0) {
            p.release();
            fail(refused != null ? refused : host.streamIdsExhausted());
            return;
        }
        streamId = id;
        try {
            Fragmenter.write(host.frames(), host.mtu(), FrameType.REQUEST_RESPONSE, id, 0, 0, Frames.metadataOrNull(p),
                p.data());
        } finally {
            p.release();
        }
    }

    @Override
    public void cancel() {
        long prev = StreamState.markCancelled(STATE, this);
        if (!canSignal(prev)) {
            return;
        }
        if (isFirstFrameSent(prev)) {
            host.execute(this);
        } else if (StreamState.demand(prev) == 0) {
            // Never requested, so no start task is queued: the payload is still ours to drop.
            Payload p = payload;
            payload = null;
            if (p != null) {
                p.release();
            }
        }
        // Requested but not started: the queued start task sees CANCELLED and releases the payload.
    }

    private void fail(Throwable t) {
        if (canSignal(StreamState.markTerminated(STATE, this))) {
            actual.onError(t);
        }
    }

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        // A response without COMPLETE is treated as complete, as the spec requires for request-response.
        host.remove(streamId, this);
        if (canSignal(StreamState.markTerminated(STATE, this))) {
            actual.onNext(p);
            actual.onComplete();
        } else {
            p.release();
        }
    }

    @Override
    public void onCompleteFrame() {
        host.remove(streamId, this);
        if (canSignal(StreamState.markTerminated(STATE, this))) {
            actual.onComplete();
        }
    }

    @Override
    public void onErrorFrame(RSocketErrorException error) {
        host.remove(streamId, this);
        fail(error);
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        fail(cause);
    }
}
