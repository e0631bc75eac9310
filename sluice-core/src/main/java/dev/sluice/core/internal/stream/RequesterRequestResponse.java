package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.canSignal;
import static dev.sluice.core.internal.stream.StreamState.isFirstFrameSent;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
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
 * <p>The first {@code request(n)} sets FIRST_FRAME_SENT and queues this object on the event loop, which sends
 * REQUEST_RESPONSE unless a cancel got there first: one compare-and-set claims the start, and the start task only
 * reads the state (each atomic operation on the request path is a measurable share of its cost). The payload
 * belongs to whoever moves the state: the start task once the request set FIRST_FRAME_SENT, else the cancel (see
 * {@link #cancel}). Here FIRST_FRAME_SENT thus means "the start is claimed": the frame goes out when the task runs.
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
        if (n > 0) {
            if (claimsStart(StreamState.markFirstFrameSentBySubscriber(STATE, this))) {
                host.startSoon(this);
            }
            return;
        }
        cancelled(StreamState.markBadRequest(STATE, this));
    }

    /** Whether the {@code markFirstFrameSent} that returned {@code previous} claimed the start. */
    private static boolean claimsStart(long previous) {
        return !isFirstFrameSent(previous) && canSignal(previous);
    }

    /**
     * On the event loop: the start task sends the request, or drops it after a cancel; run again by a cancel
     * after the start, it sends CANCEL if the request went out and no answer came yet.
     */
    @Override
    public void run() {
        Payload p = payload;
        if (p == null) {
            // The start ran before: this is a cancel's task (remove fails if it never registered, or if answered).
            if (StreamState.isCancelled(state) && host.remove(streamId, this)) {
                host.writeCancel(streamId);
            }
            StreamState.signalBadRequest(STATE, this, actual);
            return;
        }
        if (!canSignal(state)) {
            payload = null;
            p.release();
            return;
        }
        Throwable refused = host.refuseNewRequest(this);
        if (refused == ConnectionLeases.WAITING) {
            // Runs again when a lease permit is there or the wait is over; a cancel meanwhile drops the payload.
            return;
        }
        payload = null;
        int id = refused == null ? host.register(this) : -1;
        if (id < 0) {
            p.release();
            fail(refused != null ? refused : host.streamIdsExhausted());
            return;
        }
        streamId = id;
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.REQUEST_RESPONSE, id, 0, 0, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.REQUEST_RESPONSE, id, 0, 0,
                    Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // The frame is dropped whole (but for fragments already out, which the CANCEL ends): the request fails
            // here instead.
            host.remove(id, this);
            Frames.cancelPartialRequest(host, FrameType.REQUEST_RESPONSE, id, p, e);
            fail(e);
        } finally {
            p.release();
        }
    }

    @Override
    public void cancel() {
        cancelled(StreamState.markCancelled(STATE, this));
    }

    /**
     * After a cancel or a bad request set CANCELLED ({@code previous}: the state before). A bad request's error is
     * signalled where the cancel's work is done: on the event loop after a start, here before one (nothing else can
     * signal a request that never started).
     */
    private void cancelled(long previous) {
        if (!canSignal(previous)) {
            return;
        }
        if (isFirstFrameSent(previous)) {
            // The start is claimed: if it has not run yet, it sees CANCELLED and drops the payload; if it has,
            // this task sends CANCEL. Whichever runs with the payload gone signals a bad request's error.
            host.execute(this);
        } else {
            // Never requested, and no request can claim the start now: the payload is still ours to drop.
            Payload p = payload;
            payload = null;
            if (p != null) {
                p.release();
            }
            StreamState.signalBadRequest(STATE, this, actual);
        }
    }

    private void fail(Throwable t) {
        if (canSignal(StreamState.markTerminatedByLoop(STATE, this))) {
            actual.onError(t);
        }
    }

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        // A response without COMPLETE is treated as complete, as the spec requires for request-response.
        host.remove(streamId, this);
        if (canSignal(StreamState.markTerminatedByLoop(STATE, this))) {
            actual.onNext(p);
            actual.onComplete();
        } else {
            p.release();
        }
    }

    @Override
    public void onCompleteFrame() {
        host.remove(streamId, this);
        if (canSignal(StreamState.markTerminatedByLoop(STATE, this))) {
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
