package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.canSignal;
import static dev.sluice.core.internal.stream.StreamState.isFirstFrameSent;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.frame.Demand;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The requester side of request-stream: the {@code Flux}, its subscription, the registry entry and the task that
 * sends demand, in one object.
 *
 * <p>Demand from any thread accumulates (saturating) in the state word; the caller that raises it from 0 queues
 * this task, which sends it as the REQUEST_STREAM's initial n, or later as REQUEST_N, so that bursts of
 * {@code request(1)} coalesce into one frame. {@code outstanding} (event loop only) counts credits the peer has
 * not used yet: a payload beyond them fails the stream instead of being buffered. Our outbound side is done once
 * the request is sent; the stream ends with the responder's COMPLETE or ERROR, or our cancel.
 */
public final class RequesterRequestStream extends Flux<Payload> implements Subscription, Runnable, Stream {

    private static final AtomicLongFieldUpdater<RequesterRequestStream> STATE =
        AtomicLongFieldUpdater.newUpdater(RequesterRequestStream.class, "state");

    private final StreamHost host;
    private Payload payload;
    private CoreSubscriber<? super Payload> actual;
    private volatile long state;
    // Event-loop confined:
    private int streamId;
    private long outstanding;
    private boolean cancelSent;

    public RequesterRequestStream(StreamHost host, Payload payload) {
        this.host = host;
        this.payload = payload;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (isSubscribed(StreamState.markSubscribed(STATE, this))) {
            Operators.error(subscriber, new IllegalStateException("a request-stream Flux allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
    }

    @Override
    public void request(long n) {
        if (n > 0) {
            host.demandRaised(StreamState.addDemand(STATE, this, n), this);
            return;
        }
        cancelled(StreamState.markBadRequest(STATE, this));
    }

    @Override
    public void cancel() {
        cancelled(StreamState.markCancelled(STATE, this));
    }

    /** After a cancel or a bad request set CANCELLED ({@code previous}: the state before). */
    private void cancelled(long previous) {
        if (canSignal(previous) && StreamState.demand(previous) == 0) {
            // No task is queued for demand: queue one to send CANCEL (or drop the unsent payload).
            host.execute(this);
        }
    }

    /**
     * On the event loop: sends the demand taken from the state word, or the cancel. Taking the demand and setting
     * CANCELLED are both CASes on the state word, so a cancel either shows in what was taken or finds demand 0 and
     * queues this task again.
     */
    @Override
    public void run() {
        Throwable refused = null;
        long s = state;
        if (!isFirstFrameSent(s) && !StreamState.isCancelled(s) && canSignal(s) && StreamState.demand(s) > 0) {
            // Asked before the demand is taken: a request that waits for a lease permit keeps its demand in the
            // state word, so further request(n) queue nothing and a cancel is seen when this runs again.
            refused = host.refuseNewRequest(this);
            if (refused == ConnectionLeases.WAITING) {
                return;
            }
        }
        long prev = StreamState.takeDemand(STATE, this);
        if (StreamState.isCancelled(prev)) {
            onCancelled(prev);
            return;
        }
        long n = StreamState.demand(prev);
        if (n == 0 || StreamState.isTerminated(prev)) {
            return;
        }
        if (isFirstFrameSent(prev)) {
            if (outstanding != Long.MAX_VALUE) {
                outstanding = Demand.grant(outstanding, n);
                host.writeRequestN(streamId, n);
            }
            return;
        }
        if (!canSignal(StreamState.markFirstFrameSent(STATE, this))) {
            releasePayload();
            return;
        }
        Payload p = payload;
        payload = null;
        int id = refused == null ? host.register(this) : -1;
        if (id < 0) {
            p.release();
            fail(refused != null ? refused : host.streamIdsExhausted());
            return;
        }
        streamId = id;
        outstanding = Demand.grant(0, n);
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.REQUEST_STREAM, id, 0, n, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.REQUEST_STREAM, id, 0, n,
                    Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // The frame is dropped whole (but for fragments already out, which the CANCEL ends): the request fails
            // here instead.
            host.remove(id, this);
            Frames.cancelPartialRequest(host, FrameType.REQUEST_STREAM, id, p, e);
            fail(e);
            return;
        } finally {
            p.release();
        }
        StreamState.markOutboundDone(STATE, this);
    }

    private void onCancelled(long s) {
        if (!isFirstFrameSent(s)) {
            releasePayload();
        } else if (!cancelSent) {
            cancelSent = true;
            if (host.remove(streamId, this)) {
                host.writeCancel(streamId);
            }
        }
        StreamState.signalBadRequest(STATE, this, actual);
    }

    private void releasePayload() {
        Payload p = payload;
        if (p != null) {
            payload = null;
            p.release();
        }
    }

    private void fail(Throwable t) {
        if (canSignal(StreamState.markTerminated(STATE, this))) {
            actual.onError(t);
        }
    }

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        if (!canSignal(state)) {
            p.release();
            return;
        }
        if (outstanding == 0) {
            p.release();
            host.remove(streamId, this);
            host.writeCancel(streamId);
            fail(new InvalidException("peer sent more payloads than requested on stream " + streamId
                + "; stream cancelled"));
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
