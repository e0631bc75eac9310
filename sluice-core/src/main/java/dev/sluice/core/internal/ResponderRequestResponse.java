package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * The responder side of request-response: subscribes to the handler's {@code Mono} and writes its outcome as one
 * PAYLOAD (NEXT|COMPLETE, or COMPLETE alone when empty) or an ERROR. Signals from other threads hop onto the event
 * loop; all state is confined there.
 */
final class ResponderRequestResponse implements CoreSubscriber<Payload>, Stream {

    private final RSocketConnection connection;
    private final int streamId;
    private final ResponderObserver observer;
    private Subscription upstream;
    private boolean done;

    ResponderRequestResponse(RSocketConnection connection, int streamId, ResponderObserver observer) {
        this.connection = connection;
        this.streamId = streamId;
        this.observer = observer;
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
        s.request(Long.MAX_VALUE);
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
        done = true;
        observer.onFirstSignal(streamId, ResponderObserver.NEXT);
        try {
            connection.writer().writePayloadBearing(FrameType.PAYLOAD, streamId,
                FrameFlags.NEXT | FrameFlags.COMPLETE, 0, RefCountedPayload.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
        connection.remove(streamId, this);
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
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
        done = true;
        observer.onFirstSignal(streamId, ResponderObserver.ERROR);
        connection.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        connection.remove(streamId, this);
        observer.onTerminated(streamId, ResponderObserver.ERROR);
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
        done = true;
        observer.onFirstSignal(streamId, ResponderObserver.COMPLETE);
        connection.writePayloadComplete(streamId);
        connection.remove(streamId, this);
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
    }

    @Override
    public void onCancel() {
        if (!done) {
            done = true;
            connection.remove(streamId, this);
            if (upstream != null) {
                upstream.cancel();
            }
            observer.onFirstSignal(streamId, ResponderObserver.CANCEL);
            observer.onTerminated(streamId, ResponderObserver.CANCEL);
        }
    }

    @Override
    public void onConnectionClosed(Throwable cause) {
        onCancel();
    }
}
