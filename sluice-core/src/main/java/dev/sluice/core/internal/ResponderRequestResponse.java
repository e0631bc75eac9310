package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.Fuseable;

/**
 * The responder side of request-response: subscribes to the handler's {@code Mono} and writes its outcome as one
 * PAYLOAD (NEXT|COMPLETE, or COMPLETE alone when empty) or an ERROR. Signals from other threads hop onto the event
 * loop; all state is confined there. A constant answer skips all of this: see {@link #answerAtOnce}.
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
        connection.remove(streamId, this);
        answer(connection, streamId, p, observer);
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
        connection.remove(streamId, this);
        fail(connection, streamId, t, observer);
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
        connection.remove(streamId, this);
        answerEmpty(connection, streamId, observer);
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

    /**
     * Answers at once, without subscribing, when the handler returned a constant ({@code Mono.just},
     * {@code Mono.empty}, {@code Mono.error}: Reactor's {@link Fuseable.ScalarCallable}): no stream state, no
     * subscription, no entry in the stream table — the common shape of a fast handler. Event loop only.
     *
     * @return false when {@code answer} is not a constant (subscribe a {@code ResponderRequestResponse} to it)
     */
    static boolean answerAtOnce(RSocketConnection connection, int streamId, Publisher<Payload> answer,
                                ResponderObserver observer) {
        if (!(answer instanceof Fuseable.ScalarCallable<?> constant)) {
            return false;
        }
        Object value;
        try {
            value = constant.call();
        } catch (Throwable t) {
            fail(connection, streamId, Exceptions.unwrap(t), observer);
            return true;
        }
        if (value == null) {
            answerEmpty(connection, streamId, observer);
        } else {
            answer(connection, streamId, (Payload) value, observer);
        }
        return true;
    }

    /** Writes PAYLOAD(NEXT|COMPLETE) carrying {@code p}, and releases it. */
    private static void answer(RSocketConnection connection, int streamId, Payload p, ResponderObserver observer) {
        observer.onFirstSignal(streamId, ResponderObserver.NEXT);
        try {
            connection.writer().writePayloadBearing(FrameType.PAYLOAD, streamId,
                FrameFlags.NEXT | FrameFlags.COMPLETE, 0, Frames.metadataOrNull(p), p.data());
        } finally {
            p.release();
        }
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
    }

    /** Writes PAYLOAD(COMPLETE): an empty answer. */
    private static void answerEmpty(RSocketConnection connection, int streamId, ResponderObserver observer) {
        observer.onFirstSignal(streamId, ResponderObserver.COMPLETE);
        connection.writePayloadComplete(streamId);
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
    }

    /** Writes the ERROR frame for {@code t}. */
    private static void fail(RSocketConnection connection, int streamId, Throwable t, ResponderObserver observer) {
        observer.onFirstSignal(streamId, ResponderObserver.ERROR);
        connection.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        observer.onTerminated(streamId, ResponderObserver.ERROR);
    }
}
