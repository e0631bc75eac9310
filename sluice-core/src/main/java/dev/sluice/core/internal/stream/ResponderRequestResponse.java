package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.isTerminated;

import dev.sluice.core.Payload;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.Exceptions;
import reactor.core.Fuseable;

/**
 * The responder side of request-response: subscribes to the handler's {@code Mono} and writes its outcome as one
 * PAYLOAD (NEXT|COMPLETE, or COMPLETE alone when empty) or an ERROR. Whichever comes first of the handler's
 * outcome and the requester's CANCEL sets TERMINATED and wins. A constant answer skips all of this: see
 * {@link #answerAtOnce}.
 */
public final class ResponderRequestResponse extends LoopSubscriber implements Stream {

    private static final AtomicLongFieldUpdater<ResponderRequestResponse> STATE =
        AtomicLongFieldUpdater.newUpdater(ResponderRequestResponse.class, "state");

    private final StreamHost host;
    private final int streamId;
    private final ResponderObserver observer;
    private volatile long state;

    public ResponderRequestResponse(StreamHost host, int streamId, ResponderObserver observer) {
        super(host.loop(), 4);
        this.host = host;
        this.streamId = streamId;
        this.observer = observer;
    }

    @Override
    protected void handleSubscribe(Subscription s) {
        if (isTerminated(state)) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    protected void handleNext(Payload p) {
        if (isTerminated(StreamState.markTerminated(STATE, this))) {
            p.release();
            return;
        }
        host.remove(streamId, this);
        answer(host, streamId, p, observer);
    }

    @Override
    protected void handleError(Throwable t) {
        if (!isTerminated(StreamState.markTerminated(STATE, this))) {
            host.remove(streamId, this);
            fail(host, streamId, t, observer);
        }
    }

    @Override
    protected void handleComplete() {
        if (!isTerminated(StreamState.markTerminated(STATE, this))) {
            host.remove(streamId, this);
            answerEmpty(host, streamId, observer);
        }
    }

    @Override
    public void onCancel() {
        if (!isTerminated(StreamState.markTerminated(STATE, this))) {
            host.remove(streamId, this);
            cancelUpstream();
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
    public static boolean answerAtOnce(StreamHost host, int streamId, Publisher<Payload> answer,
                                       ResponderObserver observer) {
        if (!(answer instanceof Fuseable.ScalarCallable<?> constant)) {
            return false;
        }
        Object value;
        try {
            value = constant.call();
        } catch (Throwable t) {
            fail(host, streamId, Exceptions.unwrap(t), observer);
            return true;
        }
        if (value == null) {
            answerEmpty(host, streamId, observer);
        } else {
            answer(host, streamId, (Payload) value, observer);
        }
        return true;
    }

    /** Writes PAYLOAD(NEXT|COMPLETE) carrying {@code p}, and releases it. */
    private static void answer(StreamHost host, int streamId, Payload p, ResponderObserver observer) {
        try {
            if (p instanceof FrameData d) {
                Frames.write(host, FrameType.PAYLOAD, streamId, FrameFlags.NEXT | FrameFlags.COMPLETE, 0, p, d);
            } else {
                Fragmenter.write(host.frames(), host.mtu(), FrameType.PAYLOAD, streamId,
                    FrameFlags.NEXT | FrameFlags.COMPLETE, 0, Frames.metadataOrNull(p), p.data());
            }
        } catch (RuntimeException e) {
            // Nothing went out (a refused or failed frame is dropped whole): the requester gets an ERROR instead.
            fail(host, streamId, e, observer);
            return;
        } finally {
            p.release();
        }
        observer.onFirstSignal(streamId, ResponderObserver.NEXT);
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
    }

    /** Writes PAYLOAD(COMPLETE): an empty answer. */
    private static void answerEmpty(StreamHost host, int streamId, ResponderObserver observer) {
        observer.onFirstSignal(streamId, ResponderObserver.COMPLETE);
        host.writeComplete(streamId);
        observer.onTerminated(streamId, ResponderObserver.COMPLETE);
    }

    /** Writes the ERROR frame for {@code t}. */
    private static void fail(StreamHost host, int streamId, Throwable t, ResponderObserver observer) {
        observer.onFirstSignal(streamId, ResponderObserver.ERROR);
        host.writeError(streamId, Errors.streamCode(t), Errors.message(t));
        observer.onError(streamId, t);
        observer.onTerminated(streamId, ResponderObserver.ERROR);
    }
}
