package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.canSignal;
import static dev.sluice.core.internal.stream.StreamState.isFirstFrameSent;
import static dev.sluice.core.internal.stream.StreamState.isOutboundClosed;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.frame.Demand;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The requester side of request-channel. This object is the inbound {@code Flux} (responses), its subscription
 * and the registry entry; {@link Outbound} subscribes to the caller's publisher.
 *
 * <p>Sequence: the first inbound {@code request(n)} subscribes to the outbound publisher and asks it for one
 * payload; that payload goes out inside REQUEST_CHANNEL with the demand accumulated so far. Further outbound
 * payloads are requested only as the responder grants REQUEST_N credits, through an {@link OutboundDemand}. Inbound
 * demand after that goes out as REQUEST_N. An outbound publisher that completes without a payload ends the channel
 * without sending anything. With leasing, a first payload that finds no lease permit waits for one (see
 * {@link StreamHost#refuseNewRequest}); the channel then still counts as awaiting its first payload.
 *
 * <p>Half-close: the responder's COMPLETE ends the inbound side (the subscriber completes) while our payloads keep
 * flowing; our COMPLETE ends the outbound side while responses keep flowing; the responder's CANCEL ends our
 * outbound side only. The stream leaves the registry when both sides are done, or at once on ERROR or cancel.
 *
 * <p>One file a little past 400 lines on purpose: {@link Outbound} reads this object's state word and calls its
 * private send paths at every signal, so the two stay one class with one set of private fields.
 */
public final class RequesterRequestChannel extends Flux<Payload> implements Subscription, Runnable, Stream {

    private static final AtomicLongFieldUpdater<RequesterRequestChannel> STATE =
        AtomicLongFieldUpdater.newUpdater(RequesterRequestChannel.class, "state");

    private final StreamHost host;
    private final Publisher<Payload> source;
    private CoreSubscriber<? super Payload> actual;
    private volatile long state;
    // Event-loop confined:
    private Outbound outbound;
    private int streamId;
    private long outstanding;
    private boolean cancelHandled;
    /** The first payload, while the channel waits for a lease permit to send it; and what runs it again. */
    private Payload waitingFirst;
    private Runnable resumeFirst;
    /** The caller's publisher completed while its first payload waited for a permit. */
    private boolean completeAfterFirst;

    public RequesterRequestChannel(StreamHost host, Publisher<Payload> source) {
        this.host = host;
        this.source = source;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (isSubscribed(StreamState.markSubscribed(STATE, this))) {
            Operators.error(subscriber, new IllegalStateException("a request-channel Flux allows one subscriber"));
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
        if (canSignal(previous)) {
            // Before the first frame the demand stays in the word with no task queued, so always queue one.
            host.execute(this);
        }
    }

    /** On the event loop: opens the outbound side on first demand, sends later demand, or the cancel. */
    @Override
    public void run() {
        long s = state;
        if (StreamState.isCancelled(s)) {
            onCancelled(s);
            return;
        }
        if (outbound == null) {
            if (canSignal(s)) {
                Throwable closed = host.refuseWhenClosed();
                if (closed != null) {
                    fail(closed);
                    return;
                }
                // Until its first payload is sent, the channel is in no registry: this is how it hears of a close
                // (a refused SETUP, a lost connection) while its caller's publisher has nothing yet.
                host.awaitFirstPayload(this);
                outbound = new Outbound();
                source.subscribe(outbound);
            }
            return;
        }
        if (isFirstFrameSent(s)) {
            long prev = StreamState.takeDemand(STATE, this);
            long n = StreamState.demand(prev);
            if (StreamState.isCancelled(prev)) {
                onCancelled(prev);
            } else if (n > 0 && canSignal(prev) && outstanding != Long.MAX_VALUE) {
                outstanding = Demand.grant(outstanding, n);
                host.writeRequestN(streamId, n);
            }
        }
    }

    private void onCancelled(long s) {
        if (cancelHandled) {
            return;
        }
        cancelHandled = true;
        host.stopAwaiting(this);
        releaseWaitingFirst();
        if (outbound != null) {
            outbound.stop();
        }
        if (isFirstFrameSent(s) && host.remove(streamId, this)) {
            host.writeCancel(streamId);
        }
        StreamState.signalBadRequest(STATE, this, actual);
    }

    // --- outbound signals, on the event loop -----------------------------------------------------------------

    private void sendFirst(Payload p) {
        Throwable refused = null;
        long s = state;
        if (canSignal(s) && !StreamState.isCancelled(s)) {
            if (resumeFirst == null) {
                resumeFirst = this::resumeFirst;
            }
            refused = host.refuseNewRequest(resumeFirst);
            if (refused == ConnectionLeases.WAITING) {
                // Still awaiting its first payload as far as a close is concerned (see run).
                waitingFirst = p;
                return;
            }
        }
        host.stopAwaiting(this);
        if (!canSignal(StreamState.markFirstFrameSent(STATE, this))) {
            p.release();
            return;
        }
        int id = refused == null ? host.register(this) : -1;
        if (id < 0) {
            p.release();
            outbound.stop();
            fail(refused != null ? refused : host.streamIdsExhausted());
            return;
        }
        streamId = id;
        long n = StreamState.demand(StreamState.takeDemand(STATE, this));
        outstanding = Demand.grant(0, n);
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.REQUEST_CHANNEL, id, 0, n, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.REQUEST_CHANNEL, id, 0, n,
                    Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // The frame is dropped whole (but for fragments already out, which the CANCEL ends): the channel fails
            // here instead.
            host.remove(id, this);
            Frames.cancelPartialRequest(host, FrameType.REQUEST_CHANNEL, id, p, e);
            outbound.stop();
            fail(e);
            return;
        } finally {
            p.release();
        }
        if (StreamState.isCancelled(state)) {
            onCancelled(state);
        } else if (completeAfterFirst) {
            outboundCompleted();
        }
    }

    /** A lease permit is there for the waiting first payload, or its wait is over: try again. */
    private void resumeFirst() {
        Payload p = waitingFirst;
        if (p != null) {
            waitingFirst = null;
            sendFirst(p);
        }
    }

    private void releaseWaitingFirst() {
        Payload p = waitingFirst;
        if (p != null) {
            waitingFirst = null;
            p.release();
        }
    }

    private void sendNext(Payload p) {
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0,
                    Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // Nothing of this element went out (a refused or failed frame is dropped whole): the channel ends as
            // if the caller's publisher had failed.
            outbound.stop();
            outboundFailed(e);
        } finally {
            p.release();
        }
    }

    private void outboundCompleted() {
        if (waitingFirst != null) {
            completeAfterFirst = true;
            return;
        }
        if (!isFirstFrameSent(state)) {
            // Nothing was ever sent: the channel ends here, quietly.
            host.stopAwaiting(this);
            if (canSignal(StreamState.markTerminated(STATE, this))) {
                actual.onComplete();
            }
            return;
        }
        host.writeComplete(streamId);
        removeIfBothDone(StreamState.markOutboundDone(STATE, this) | StreamState.OUTBOUND_DONE);
    }

    private void outboundFailed(Throwable t) {
        if (isFirstFrameSent(state) && host.remove(streamId, this)) {
            host.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        }
        fail(t);
    }

    private void removeIfBothDone(long s) {
        if (StreamState.bothDone(s)) {
            host.remove(streamId, this);
        }
    }

    private void fail(Throwable t) {
        host.stopAwaiting(this);
        releaseWaitingFirst();
        if (canSignal(StreamState.markTerminated(STATE, this))) {
            actual.onError(t);
        }
    }

    // --- inbound frames ---------------------------------------------------------------------------------------

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
            outbound.stop();
            fail(new InvalidException("peer sent more payloads than requested on stream " + streamId
                + "; channel cancelled"));
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
        long prev = StreamState.markInboundDone(STATE, this);
        if (canSignal(prev)) {
            actual.onComplete();
        }
        removeIfBothDone(prev | StreamState.INBOUND_DONE);
    }

    @Override
    public void onErrorFrame(RSocketErrorException error) {
        host.remove(streamId, this);
        outbound.stop();
        fail(error);
    }

    @Override
    public void onRequestN(long n) {
        if (!isOutboundClosed(state)) {
            outbound.demand.add(n);
        }
    }

    @Override
    public void onCancel() {
        // The responder wants no more of our payloads; its responses may continue.
        long prev = StreamState.markOutboundDone(STATE, this);
        outbound.stop();
        removeIfBothDone(prev | StreamState.OUTBOUND_DONE);
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        if (outbound != null) {
            outbound.stop();
        }
        fail(cause);
    }

    /** Subscriber to the caller's publisher; its signals reach the event loop in order. */
    private final class Outbound extends LoopSubscriber {

        /** One credit for the payload REQUEST_CHANNEL carries, then the responder's REQUEST_N credits. */
        final OutboundDemand demand = new OutboundDemand(host.gate(), 1);
        private boolean first = true;
        private boolean stopped;

        Outbound() {
            super(host.loop(), OutboundDemand.BATCH + 2);
        }

        @Override
        protected void handleSubscribe(Subscription s) {
            if (stopped || isOutboundClosed(state)) {
                s.cancel();
                return;
            }
            demand.start(s);
        }

        @Override
        protected void handleNext(Payload p) {
            if (stopped || isOutboundClosed(state)) {
                p.release();
                return;
            }
            if (first) {
                first = false;
                sendFirst(p);
            } else {
                sendNext(p);
            }
            demand.received();
        }

        @Override
        protected void handleError(Throwable t) {
            if (!stopped && !isOutboundClosed(state)) {
                stopped = true;
                demand.stop();
                outboundFailed(t);
            }
        }

        @Override
        protected void handleComplete() {
            if (!stopped && !isOutboundClosed(state)) {
                stopped = true;
                demand.stop();
                outboundCompleted();
            }
        }

        /** Nothing more is wanted from the caller's publisher. */
        void stop() {
            if (!stopped) {
                stopped = true;
                demand.stop();
                cancelUpstream();
            }
        }
    }
}
