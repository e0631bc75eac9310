package dev.sluice.core.internal;

import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.Demand;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
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
 * <p>Inbound demand goes to the requester as REQUEST_N credits (the first payload needs none); a payload beyond
 * the credits fails the channel with ERROR[INVALID]. The stream leaves the registry when both directions are
 * done, or at once on ERROR. A handler that finishes without ever subscribing to the inbound side gets it
 * cancelled, so the first payload is released and the requester stops.
 */
final class ResponderRequestChannel implements CoreSubscriber<Payload>, Stream {

    private final RSocketConnection connection;
    private final int streamId;
    private final ResponderObserver observer;
    /** Paces the handler's outbound Flux by the requester's credits (a request after cancel is a no-op). */
    private final OutboundDemand demand;
    final Inbound inbound;
    private Subscription upstream;
    private boolean firstSignal;
    private boolean outboundDone;

    ResponderRequestChannel(RSocketConnection connection, int streamId, long initialRequestN, Payload first,
                            boolean requesterComplete, ResponderObserver observer) {
        this.connection = connection;
        this.streamId = streamId;
        this.observer = observer;
        this.demand = new OutboundDemand(connection.gate(), initialRequestN);
        this.inbound = new Inbound(first, requesterComplete);
    }

    // --- the handler's outbound Flux -------------------------------------------------------------------------

    @Override
    public void onSubscribe(Subscription s) {
        if (!connection.inEventLoop()) {
            connection.execute(() -> onSubscribe(s));
            return;
        }
        if (outboundDone) {
            s.cancel();
            return;
        }
        upstream = s;
        demand.start(s);
    }

    @Override
    public void onNext(Payload p) {
        if (!connection.inEventLoop()) {
            connection.execute(() -> onNext(p));
            return;
        }
        if (outboundDone) {
            p.release();
            return;
        }
        signal(ResponderObserver.NEXT);
        try {
            connection.writer().writePayloadBearing(FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0,
                Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
        demand.received();
    }

    @Override
    public void onError(Throwable t) {
        if (!connection.inEventLoop()) {
            connection.execute(() -> onError(t));
            return;
        }
        if (outboundDone) {
            return;
        }
        outboundDone = true;
        signal(ResponderObserver.ERROR);
        // ERROR ends both directions.
        connection.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        inbound.terminate(t);
        finish(ResponderObserver.ERROR);
    }

    @Override
    public void onComplete() {
        if (!connection.inEventLoop()) {
            connection.execute(this::onComplete);
            return;
        }
        if (outboundDone) {
            return;
        }
        outboundDone = true;
        signal(ResponderObserver.COMPLETE);
        connection.writePayloadComplete(streamId);
        if (!inbound.subscribed()) {
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
        outboundDone = true;
        // Inbound first: cancelling the handler's Flux usually cancels its inbound subscription too, and an inbound
        // side that is not done yet would answer that with a CANCEL frame for a stream the ERROR already ended.
        inbound.terminate(error);
        if (upstream != null) {
            upstream.cancel();
        }
        finish(ResponderObserver.ERROR);
    }

    @Override
    public void onRequestN(long n) {
        if (!outboundDone) {
            demand.add(n);
        }
    }

    @Override
    public void onCancel() {
        if (!outboundDone) {
            outboundDone = true;
            if (upstream != null) {
                upstream.cancel();
            }
            signal(ResponderObserver.CANCEL);
            finishIfBothDone();
        }
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        outboundDone = true;
        inbound.terminate(cause); // before the cancel, as in onErrorFrame: no CANCEL for a stream that ended
        if (upstream != null) {
            upstream.cancel();
        }
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
        if (outboundDone && inbound.done) {
            finish(ResponderObserver.COMPLETE);
        }
    }

    private void finish(int signal) {
        if (connection.remove(streamId, this)) {
            signal(signal);
            observer.onTerminated(streamId, signal);
        }
    }

    /**
     * The requester's payloads as the handler's input. Demand from any thread accumulates in {@code pending} and
     * is turned into REQUEST_N on the event loop; delivery happens on the event loop within that demand.
     */
    final class Inbound extends Flux<Payload> implements Subscription, Runnable {

        private static final AtomicIntegerFieldUpdater<Inbound> SUBSCRIBED =
            AtomicIntegerFieldUpdater.newUpdater(Inbound.class, "subscribedFlag");
        private static final AtomicLongFieldUpdater<Inbound> PENDING =
            AtomicLongFieldUpdater.newUpdater(Inbound.class, "pending");

        private volatile int subscribedFlag;
        private volatile long pending;
        private volatile boolean cancelled;
        private CoreSubscriber<? super Payload> actual;
        // Event-loop confined:
        private Payload first;
        private boolean requesterComplete;
        /** Payloads the subscriber asked for and has not received. */
        private long demand;
        /** Credits granted to the requester and not used yet. */
        private long credits;
        boolean done;

        Inbound(Payload first, boolean requesterComplete) {
            this.first = first;
            this.requesterComplete = requesterComplete;
        }

        boolean subscribed() {
            return subscribedFlag == 1;
        }

        @Override
        public void subscribe(CoreSubscriber<? super Payload> subscriber) {
            if (!SUBSCRIBED.compareAndSet(this, 0, 1)) {
                Operators.error(subscriber, new IllegalStateException(
                    "the inbound Flux of a request-channel allows one subscriber"));
                return;
            }
            actual = subscriber;
            subscriber.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                return;
            }
            for (;;) {
                long p = pending;
                if (PENDING.compareAndSet(this, p, Demand.add(p, n))) {
                    if (p == 0) {
                        connection.execute(this);
                    }
                    return;
                }
            }
        }

        /** Applies new demand on the event loop. */
        @Override
        public void run() {
            long n = PENDING.getAndSet(this, 0);
            if (done || n == 0) {
                return;
            }
            demand = Demand.add(demand, n);
            if (first != null) {
                Payload p = first;
                first = null;
                demand = demand == Long.MAX_VALUE ? demand : demand - 1;
                n = n == Long.MAX_VALUE ? n : n - 1;
                actual.onNext(p);
                if (requesterComplete) {
                    complete();
                    return;
                }
            }
            if (n > 0 && !requesterComplete && !done && credits != Long.MAX_VALUE) {
                credits = Demand.grant(credits, n);
                connection.writeRequestN(streamId, n);
            }
        }

        void deliver(Payload p, boolean complete) {
            if (done) {
                p.release();
                return;
            }
            if (credits == 0 || demand == 0) {
                p.release();
                RSocketErrorException e = new InvalidException("requester sent more payloads than requested on"
                    + " stream " + streamId);
                connection.writeError(streamId, ErrorCodes.INVALID, e.getMessage());
                ResponderRequestChannel.this.onErrorFrame(e);
                return;
            }
            if (credits != Long.MAX_VALUE) {
                credits--;
            }
            if (demand != Long.MAX_VALUE) {
                demand--;
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
            if (!done) {
                done = true;
                actual.onComplete();
                finishIfBothDone();
            }
        }

        /** Ends the inbound side with an error (channel failed) and drops what it holds. */
        void terminate(Throwable t) {
            releaseFirst();
            if (!done) {
                done = true;
                if (actual != null && !cancelled) {
                    actual.onError(t);
                }
            }
        }

        @Override
        public void cancel() {
            if (!cancelled) {
                cancelled = true;
                connection.execute(this::cancelFromHandler);
            }
        }

        /** The handler no longer wants the requester's payloads: tell the requester to stop sending. */
        void cancelFromHandler() {
            cancelled = true;
            releaseFirst();
            if (!done) {
                done = true;
                if (!requesterComplete) {
                    connection.writeCancel(streamId);
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
