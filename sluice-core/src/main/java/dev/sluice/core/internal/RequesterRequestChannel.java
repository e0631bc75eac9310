package dev.sluice.core.internal;

import dev.sluice.core.exceptions.InvalidException;
import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;
import dev.sluice.frame.Demand;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
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
 * payload; that payload goes out inside REQUEST_CHANNEL with initial n. Further outbound payloads are requested
 * only as the responder grants REQUEST_N credits, through an {@link OutboundDemand} (in batches, while the
 * transport is writable). Inbound demand after that goes out as REQUEST_N. An outbound publisher that completes
 * without a payload ends the channel without sending anything.
 *
 * <p>The stream leaves the registry when both directions are done, or at once on ERROR or cancel.
 */
final class RequesterRequestChannel extends Flux<Payload> implements Subscription, Runnable, Stream {

    private static final int NEW = 0;
    private static final int SUBSCRIBED = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;
    private static final AtomicIntegerFieldUpdater<RequesterRequestChannel> STATE =
        AtomicIntegerFieldUpdater.newUpdater(RequesterRequestChannel.class, "state");
    private static final AtomicLongFieldUpdater<RequesterRequestChannel> PENDING =
        AtomicLongFieldUpdater.newUpdater(RequesterRequestChannel.class, "pending");

    private final RSocketConnection connection;
    private final Publisher<Payload> source;
    private CoreSubscriber<? super Payload> actual;
    private volatile int state;
    private volatile long pending;
    // Event-loop confined:
    private Outbound outbound;
    private int streamId;
    private boolean started;
    private boolean inboundDone;
    private boolean outboundDone;
    private long outstanding;

    RequesterRequestChannel(RSocketConnection connection, Publisher<Payload> source) {
        this.connection = connection;
        this.source = source;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Payload> subscriber) {
        if (!STATE.compareAndSet(this, NEW, SUBSCRIBED)) {
            Operators.error(subscriber, new IllegalStateException("a request-channel Flux allows one subscriber"));
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

    /** Inbound demand, on the event loop. */
    @Override
    public void run() {
        if (state != SUBSCRIBED) {
            return;
        }
        if (outbound == null) {
            // First demand: open the outbound side; REQUEST_CHANNEL waits for its first payload.
            outbound = new Outbound();
            source.subscribe(outbound);
            return;
        }
        if (started && !inboundDone) {
            long n = PENDING.getAndSet(this, 0);
            if (n > 0 && outstanding != Long.MAX_VALUE) {
                outstanding = Demand.grant(outstanding, n);
                connection.writeRequestN(streamId, n);
            }
        }
    }

    @Override
    public void cancel() {
        if (STATE.compareAndSet(this, SUBSCRIBED, CANCELLED)) {
            connection.execute(this::cancelOnLoop);
        }
    }

    private void cancelOnLoop() {
        if (outbound != null) {
            outbound.cancelUpstream();
        }
        if (started && connection.remove(streamId, this)) {
            connection.writeCancel(streamId);
        }
    }

    // --- outbound signals, on the event loop -----------------------------------------------------------------

    private void sendFirst(Payload p) {
        Throwable refused = connection.refuseNewRequest();
        int id = refused == null ? connection.register(this) : -1;
        if (id < 0) {
            p.release();
            outbound.cancelUpstream();
            fail(refused != null ? refused : connection.streamIdsExhausted());
            return;
        }
        streamId = id;
        started = true;
        long n = PENDING.getAndSet(this, 0);
        outstanding = Demand.grant(0, n);
        try {
            connection.writer().writePayloadBearing(FrameType.REQUEST_CHANNEL, id, 0, n,
                Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
    }

    private void sendNext(Payload p) {
        try {
            connection.writer().writePayloadBearing(FrameType.PAYLOAD, streamId, FrameFlags.NEXT, 0,
                Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
    }

    private void outboundCompleted() {
        if (!started) {
            // Nothing was ever sent: the channel ends here, quietly.
            if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
                actual.onComplete();
            }
            return;
        }
        outboundDone = true;
        connection.writePayloadComplete(streamId);
        removeIfBothDone();
    }

    private void outboundFailed(Throwable t) {
        if (started && connection.remove(streamId, this)) {
            connection.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        }
        fail(t);
    }

    private void removeIfBothDone() {
        if (inboundDone && outboundDone) {
            connection.remove(streamId, this);
        }
    }

    private void fail(Throwable t) {
        if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
            actual.onError(t);
        }
    }

    // --- inbound frames ---------------------------------------------------------------------------------------

    @Override
    public void onNextFrame(Payload p, boolean complete) {
        if (state != SUBSCRIBED || inboundDone) {
            p.release();
            return;
        }
        if (outstanding == 0) {
            p.release();
            connection.remove(streamId, this);
            connection.writeCancel(streamId);
            outbound.cancelUpstream();
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
        if (inboundDone) {
            return;
        }
        inboundDone = true;
        if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
            actual.onComplete();
        }
        removeIfBothDone();
    }

    @Override
    public void onErrorFrame(RSocketErrorException error) {
        connection.remove(streamId, this);
        outbound.cancelUpstream();
        fail(error);
    }

    @Override
    public void onRequestN(long n) {
        if (!outboundDone) {
            outbound.request(n);
        }
    }

    @Override
    public void onCancel() {
        // The responder wants no more of our payloads; its responses may continue.
        outboundDone = true;
        outbound.cancelUpstream();
        removeIfBothDone();
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        if (outbound != null) {
            outbound.cancelUpstream();
        }
        fail(cause);
    }

    /** Subscriber to the caller's publisher; hops every signal onto the event loop, in order. */
    private final class Outbound implements CoreSubscriber<Payload> {

        private Subscription upstream;
        private boolean cancelled;
        private boolean first = true;
        /** One credit for the payload REQUEST_CHANNEL carries, then the responder's REQUEST_N credits. */
        private final OutboundDemand demand = new OutboundDemand(connection.gate(), 1);

        @Override
        public void onSubscribe(Subscription s) {
            if (!connection.inEventLoop()) {
                connection.execute(() -> onSubscribe(s));
                return;
            }
            if (cancelled || state == CANCELLED) {
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
            // Not the inbound state: each direction of a channel ends on its own, so a responder that completed
            // its side first still receives what we send (every path that ends ours cancels upstream).
            if (cancelled || outboundDone || state == CANCELLED) {
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
        public void onError(Throwable t) {
            if (!connection.inEventLoop()) {
                connection.execute(() -> onError(t));
                return;
            }
            if (!cancelled && !outboundDone) {
                outboundDone = true;
                outboundFailed(t);
            }
        }

        @Override
        public void onComplete() {
            if (!connection.inEventLoop()) {
                connection.execute(this::onComplete);
                return;
            }
            if (!cancelled && !outboundDone) {
                outboundCompleted();
            }
        }

        void request(long n) {
            if (!cancelled) {
                demand.add(n);
            }
        }

        void cancelUpstream() {
            if (!cancelled) {
                cancelled = true;
                demand.stop();
                if (upstream != null) {
                    upstream.cancel();
                }
            }
        }
    }
}
