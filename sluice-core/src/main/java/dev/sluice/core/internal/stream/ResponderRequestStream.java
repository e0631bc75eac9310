package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.isOutboundClosed;

import dev.sluice.core.Payload;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;

/**
 * The responder side of request-stream: subscribes to the handler's {@code Flux}, passes the requester's demand
 * (initial n, then REQUEST_N) on through an {@link OutboundDemand} — in batches, while the transport is writable —
 * and writes each element as PAYLOAD(NEXT), then COMPLETE or ERROR. The requester's side is done from the start
 * (it sends only REQUEST_N or CANCEL); ours ends with the handler's terminal signal or the requester's CANCEL.
 */
public final class ResponderRequestStream extends LoopSubscriber implements Stream {

    private static final AtomicLongFieldUpdater<ResponderRequestStream> STATE =
        AtomicLongFieldUpdater.newUpdater(ResponderRequestStream.class, "state");

    private final StreamHost host;
    private final int streamId;
    private final ResponderObserver observer;
    private final OutboundDemand demand;
    private volatile long state = StreamState.INBOUND_DONE;
    private boolean started;

    public ResponderRequestStream(StreamHost host, int streamId, long initialRequestN, ResponderObserver observer) {
        super(host.loop(), OutboundDemand.BATCH + 2);
        this.host = host;
        this.streamId = streamId;
        this.observer = observer;
        this.demand = new OutboundDemand(host.gate(), initialRequestN);
    }

    @Override
    protected void handleSubscribe(Subscription s) {
        if (isOutboundClosed(state)) {
            s.cancel();
            return;
        }
        demand.start(s);
    }

    @Override
    protected void handleNext(Payload p) {
        if (isOutboundClosed(state)) {
            p.release();
            return;
        }
        firstSignal(ResponderObserver.NEXT);
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
        if (!isOutboundClosed(StreamState.markOutboundDone(STATE, this))) {
            host.writeError(streamId, Errors.streamCode(t), Errors.message(t));
            observer.onError(streamId, t);
            terminate(ResponderObserver.ERROR);
        }
    }

    @Override
    protected void handleComplete() {
        if (!isOutboundClosed(StreamState.markOutboundDone(STATE, this))) {
            host.writeComplete(streamId);
            terminate(ResponderObserver.COMPLETE);
        }
    }

    @Override
    public void onRequestN(long n) {
        if (!isOutboundClosed(state)) {
            demand.add(n);
        }
    }

    @Override
    public void onCancel() {
        if (!isOutboundClosed(StreamState.markTerminated(STATE, this))) {
            terminate(ResponderObserver.CANCEL);
            cancelUpstream();
        }
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        onCancel();
    }

    private void firstSignal(int signal) {
        if (!started) {
            started = true;
            observer.onFirstSignal(streamId, signal);
        }
    }

    private void terminate(int signal) {
        demand.stop();
        host.remove(streamId, this);
        firstSignal(signal);
        observer.onTerminated(streamId, signal);
    }
}
