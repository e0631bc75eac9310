package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.isInboundDone;
import static dev.sluice.core.internal.stream.StreamState.isOutboundDone;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;
import static dev.sluice.core.internal.stream.StreamState.isTerminated;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.Demand;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The responder side of request-channel. This object subscribes to the handler's outbound {@code Flux} (writing
 * PAYLOADs within the requester's demand) and is the registry entry; {@link Inbound} is the {@code Flux} of the
 * requester's payloads handed to the handler, starting with the one REQUEST_CHANNEL carried.
 *
 * <p>One state word serves both: SUBSCRIBED, the demand and CANCELLED belong to the handler's subscription to the
 * inbound side; INBOUND_DONE is set when that side ended (the requester's COMPLETE delivered, or the handler
 * cancelled it), OUTBOUND_DONE when ours did (the handler's terminal signal). Each side
 * ends on its own; the stream leaves the registry when both are done, or at once on ERROR or the requester's CANCEL
 * (which ends both directions). Inbound demand goes to
 * the requester as REQUEST_N credits (the first payload needs none); a payload beyond them fails the channel with
 * ERROR[INVALID]. A handler that finishes without ever subscribing to the inbound side gets it cancelled.
 */
public final class ResponderRequestChannel extends LoopSubscriber implements Stream {

    private static final AtomicLongFieldUpdater<ResponderRequestChannel> STATE =
        AtomicLongFieldUpdater.newUpdater(ResponderRequestChannel.class, "state");

    private final StreamHost host;
    private final int streamId;
    private final ResponderObserver observer;
    /** Paces the handler's outbound Flux by the requester's credits. */
    private final OutboundDemand demand;
    private final Inbound inbound;
    private volatile long state;
    private boolean firstSignal;

    public ResponderRequestChannel(StreamHost host, int streamId, long initialRequestN, Payload first,
                                   boolean requesterComplete, ResponderObserver observer) {
        super(host.loop(), OutboundDemand.BATCH + 2);
        this.host = host;
        this.streamId = streamId;
        this.observer = observer;
        this.demand = new OutboundDemand(host.gate(), initialRequestN);
        this.inbound = new Inbound(first, requesterComplete);
    }

    /** The requester's payloads, for the handler. */
    public Flux<Payload> inbound() {
        return inbound;
    }

    // --- the handler's outbound Flux -------------------------------------------------------------------------

    @Override
    protected void handleSubscribe(Subscription s) {
        if (isOutboundDone(state)) {
            s.cancel();
            return;
        }
        demand.start(s);
    }

    @Override
    protected void handleNext(Payload p) {
        if (isOutboundDone(state)) {
            p.release();
            return;
        }
        signal(ResponderObserver.NEXT);
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0,
                    Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // Nothing of this element went out (a refused or failed frame is dropped whole): the stream ends with
            // an ERROR, as if the handler had failed.
            cancelUpstream();
            handleError(e);
            return;
        } finally {
            p.release();
        }
        demand.received();
    }

    @Override
    protected void handleError(Throwable t) {
        if (isOutboundDone(StreamState.markOutboundDone(STATE, this))) {
            return;
        }
        demand.stop();
        signal(ResponderObserver.ERROR);
        // ERROR ends both directions.
        host.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        inbound.terminate(t);
        finish(ResponderObserver.ERROR, t);
    }

    @Override
    protected void handleComplete() {
        if (isOutboundDone(StreamState.markOutboundDone(STATE, this))) {
            return;
        }
        demand.stop();
        signal(ResponderObserver.COMPLETE);
        host.writeComplete(streamId);
        if (!isSubscribed(state)) {
            inbound.cancelFromHandler();
        }
        finishIfBothDone();
    }

    // --- frames from the requester ---------------------------------------------------------------------------

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        inbound.deliver(p, complete);
    }

    @Override
    public void onCompleteFrame() {
        inbound.requesterCompleted();
    }

    @Override
    public void onErrorFrame(RSocketErrorException error) {
        StreamState.markOutboundDone(STATE, this);
        demand.stop();
        // Inbound first: cancelling the handler's Flux usually cancels its inbound subscription too, and an inbound
        // side that is not done yet would answer that with a CANCEL frame for a stream the ERROR already ended.
        inbound.terminate(error);
        cancelUpstream();
        finish(ResponderObserver.ERROR);
    }

    @Override
    public void onRequestN(long n) {
        if (!isOutboundDone(state)) {
            demand.add(n);
        }
    }

    @Override
    public void onCancel() {
        // A requester's CANCEL ends the channel in both directions, as rsocket-java reads it: our outbound stops,
        // and the handler's inbound ends with an error unless it ended already (nothing more will come).
        if (!isOutboundDone(StreamState.markOutboundDone(STATE, this))) {
            demand.stop();
            cancelUpstream();
        }
        inbound.terminate(new CancellationException("the requester cancelled request-channel stream " + streamId));
        finish(ResponderObserver.CANCEL);
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        StreamState.markOutboundDone(STATE, this);
        demand.stop();
        inbound.terminate(cause); // before the cancel, as in onErrorFrame: no CANCEL for a stream that ended
        cancelUpstream();
        signal(ResponderObserver.CANCEL);
        observer.onTerminated(streamId, ResponderObserver.CANCEL);
    }

    private void signal(int kind) {
        if (!firstSignal) {
            firstSignal = true;
            observer.onFirstSignal(streamId, kind);
        }
    }

    private void finishIfBothDone() {
        if (StreamState.bothDone(state)) {
            finish(ResponderObserver.COMPLETE);
        }
    }

    private void finish(int signal) {
        finish(signal, null);
    }

    /** @param error the handler's failure when {@code signal} is ERROR because of it, else null */
    private void finish(int signal, Throwable error) {
        if (host.remove(streamId, this)) {
            signal(signal);
            if (error != null) {
                observer.onError(streamId, error);
            }
            observer.onTerminated(streamId, signal);
        }
    }

    /**
     * The requester's payloads as the handler's input. Demand from any thread accumulates in the state word and
     * is turned into REQUEST_N on the event loop; delivery happens on the event loop within that demand.
     */
    private final class Inbound extends Flux<Payload> implements Subscription, Runnable {

        private CoreSubscriber<? super Payload> actual;
        // Event-loop confined:
        private Payload first;
        private boolean requesterComplete;
        /** Payloads the subscriber asked for and has not received. */
        private long wanted;
        /** Credits granted to the requester and not used yet. */
        private long credits;

        Inbound(Payload first, boolean requesterComplete) {
            this.first = first;
            this.requesterComplete = requesterComplete;
        }

        @Override
        public void subscribe(CoreSubscriber<? super Payload> subscriber) {
            if (isSubscribed(StreamState.markSubscribed(STATE, ResponderRequestChannel.this))) {
                Operators.error(subscriber, new IllegalStateException(
                    "the inbound Flux of a request-channel allows one subscriber"));
                return;
            }
            actual = subscriber;
            subscriber.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            if (n > 0) {
                if (StreamState.wasIdle(StreamState.addDemand(STATE, ResponderRequestChannel.this, n))) {
                    host.execute(this);
                }
                return;
            }
            cancelled(StreamState.markBadRequest(STATE, ResponderRequestChannel.this));
        }

        @Override
        public void cancel() {
            cancelled(StreamState.markCancelled(STATE, ResponderRequestChannel.this));
        }

        /** After a cancel or a bad request set CANCELLED ({@code previous}: the state before). */
        private void cancelled(long previous) {
            if (!StreamState.isCancelled(previous) && !isTerminated(previous) && !isInboundDone(previous)) {
                host.execute(this);
            }
        }

        /** On the event loop: applies new demand, or the handler's cancel (and a bad request's error). */
        @Override
        public void run() {
            long prev = StreamState.takeDemand(STATE, ResponderRequestChannel.this);
            if (StreamState.isCancelled(prev)) {
                cancelFromHandler();
                StreamState.signalBadRequest(STATE, ResponderRequestChannel.this, actual);
                return;
            }
            long n = StreamState.demand(prev);
            if (isInboundDone(prev) || isTerminated(prev) || n == 0) {
                return;
            }
            wanted = Demand.add(wanted, n);
            if (first != null) {
                Payload p = first;
                first = null;
                wanted = wanted == Long.MAX_VALUE ? wanted : wanted - 1;
                n = n == Long.MAX_VALUE ? n : n - 1;
                actual.onNext(p);
                if (requesterComplete) {
                    complete();
                    return;
                }
            }
            if (n > 0 && !requesterComplete && !isInboundDone(state) && credits != Long.MAX_VALUE) {
                credits = Demand.grant(credits, n);
                host.writeRequestN(streamId, n);
            }
        }

        void deliver(Payload p, boolean complete) {
            long s = state;
            if (isInboundDone(s) || StreamState.isCancelled(s)) {
                p.release();
                return;
            }
            if (credits == 0 || wanted == 0) {
                p.release();
                RSocketErrorException e = new InvalidException("requester sent more payloads than requested on"
                    + " stream " + streamId);
                host.writeError(streamId, ErrorCodes.INVALID, e.getMessage());
                onErrorFrame(e);
                return;
            }
            if (credits != Long.MAX_VALUE) {
                credits--;
            }
            if (wanted != Long.MAX_VALUE) {
                wanted--;
            }
            actual.onNext(p);
            if (complete) {
                requesterCompleted();
            }
        }

        void requesterCompleted() {
            requesterComplete = true;
            if (first == null) {
                complete();
            }
        }

        private void complete() {
            long prev = StreamState.markInboundDone(STATE, ResponderRequestChannel.this);
            if (!isInboundDone(prev)) {
                // A handler that cancelled gets nothing more, even when the requester's COMPLETE beat the cancel's
                // task to the event loop; that task then finds the side done and sends no CANCEL.
                if (!StreamState.isCancelled(prev)) {
                    actual.onComplete();
                }
                finishIfBothDone();
            }
        }

        /** Ends the inbound side with an error (channel failed) and drops what it holds. */
        void terminate(Throwable t) {
            releaseFirst();
            long prev = StreamState.markInboundDone(STATE, ResponderRequestChannel.this);
            if (!isInboundDone(prev) && actual != null && !StreamState.isCancelled(prev)) {
                actual.onError(t);
            }
        }

        /** The handler no longer wants the requester's payloads: tell the requester to stop sending. */
        void cancelFromHandler() {
            releaseFirst();
            if (!isInboundDone(StreamState.markInboundDone(STATE, ResponderRequestChannel.this))) {
                if (!requesterComplete) {
                    host.writeCancel(streamId);
                }
                finishIfBothDone();
            }
        }

        private void releaseFirst() {
            if (first != null) {
                first.release();
                first = null;
            }
        }
    }
}
