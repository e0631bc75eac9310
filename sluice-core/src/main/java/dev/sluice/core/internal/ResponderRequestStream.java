package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * The responder side of request-stream: subscribes to the handler's {@code Flux}, passes the requester's demand
 * (initial n, then REQUEST_N) on through an {@link OutboundDemand} — in batches, while the transport is writable —
 * and writes each element as PAYLOAD(NEXT), then COMPLETE or ERROR. Signals from other threads hop onto the event
 * loop; all state is confined there.
 */
final class ResponderRequestStream implements CoreSubscriber<Payload>, Stream {

    private final RSocketConnection connection;
    private final int streamId;
    private final ResponderObserver observer;
    private final OutboundDemand demand;
    private Subscription upstream;
    private boolean started;
    private boolean done;

    ResponderRequestStream(RSocketConnection connection, int streamId, long initialRequestN,
                           ResponderObserver observer) {
        this.connection = connection;
        this.streamId = streamId;
        this.observer = observer;
        this.demand = new OutboundDemand(connection.gate(), initialRequestN);
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (!connection.inEventLoop()) {
            connection.execute(() -> onSubscribe(s));
            return;
        }
        if (done) {
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
        if (done) {
            p.release();
            return;
        }
        if (!started) {
            started = true;
            observer.onFirstSignal(streamId, ResponderObserver.NEXT);
        }
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
        if (done) {
            return;
        }
        connection.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        terminate(ResponderObserver.ERROR);
    }

    @Override
    public void onComplete() {
        if (!connection.inEventLoop()) {
            connection.execute(this::onComplete);
            return;
        }
        if (done) {
            return;
        }
        connection.writePayloadComplete(streamId);
        terminate(ResponderObserver.COMPLETE);
    }

    @Override
    public void onRequestN(long n) {
        if (!done) {
            demand.add(n);
        }
    }

    @Override
    public void onCancel() {
        if (!done) {
            terminate(ResponderObserver.CANCEL);
            if (upstream != null) {
                upstream.cancel();
            }
        }
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        onCancel();
    }

    private void terminate(int signal) {
        done = true;
        demand.stop();
        connection.remove(streamId, this);
        if (!started) {
            started = true;
            observer.onFirstSignal(streamId, signal);
        }
        observer.onTerminated(streamId, signal);
    }
}
