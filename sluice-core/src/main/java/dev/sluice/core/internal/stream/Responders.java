package dev.sluice.core.internal.stream;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FrameType;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.Fuseable;
import reactor.core.publisher.Mono;

/**
 * Starts the responder side of a request that arrived whole: calls the handler and subscribes the interaction's
 * stream to its answer. A handler that throws or returns null answers with that error; a fire-and-forget or
 * metadata-push handler, which has nobody to answer, gets it logged ({@link HandlerFailureLog}).
 */
public final class Responders {

    private Responders() {
    }

    /**
     * Serves one request. Event loop only.
     *
     * @param payload   the request's payload; ownership passes to the handler
     */
    public static void start(StreamHost host, RSocket handler, int frameType,
                             int streamId, long initialRequestN, boolean requesterComplete, Payload payload,
                             ResponderObserver observer) {
        switch (frameType) {
            case FrameType.REQUEST_FNF -> {
                // Nothing comes back: the response starts and ends with the handler's invocation.
                observer.onFirstSignal(streamId, ResponderObserver.COMPLETE);
                observer.onTerminated(streamId, ResponderObserver.COMPLETE);
                Mono<Void> result;
                try {
                    result = handler.fireAndForget(payload);
                } catch (Throwable t) {
                    HandlerFailureLog.SHARED.fireAndForgetFailed(System.nanoTime(), streamId, t);
                    return;
                }
                drain(result, streamId);
            }
            case FrameType.REQUEST_RESPONSE -> {
                Publisher<Payload> answer;
                try {
                    answer = orError(handler.requestResponse(payload));
                } catch (Throwable t) {
                    answer = Mono.error(t);
                }
                if (!ResponderRequestResponse.answerAtOnce(host, streamId, answer, observer)) {
                    ResponderRequestResponse r = new ResponderRequestResponse(host, streamId, observer);
                    host.registerPeerStream(streamId, r);
                    answer.subscribe(r);
                }
            }
            case FrameType.REQUEST_STREAM -> {
                ResponderRequestStream r = new ResponderRequestStream(host, streamId, initialRequestN, observer);
                host.registerPeerStream(streamId, r);
                Publisher<Payload> answer;
                try {
                    answer = orError(handler.requestStream(payload));
                } catch (Throwable t) {
                    answer = Mono.error(t);
                }
                answer.subscribe(r);
            }
            default -> {
                ResponderRequestChannel r = new ResponderRequestChannel(host, streamId, initialRequestN, payload,
                    requesterComplete, observer);
                host.registerPeerStream(streamId, r);
                Publisher<Payload> answer;
                try {
                    answer = orError(handler.requestChannel(r.inbound()));
                } catch (Throwable t) {
                    answer = Mono.error(t);
                }
                answer.subscribe(r);
            }
        }
    }

    /** The handler's answer, or an error when it returned null. */
    private static <T> Publisher<T> orError(Publisher<T> p) {
        return p != null ? p : Mono.error(new NullPointerException("the handler returned null"));
    }

    /**
     * Serves one METADATA_PUSH: calls the handler and drains its result, logging a failure as a fire-and-forget
     * one is logged. Event loop only.
     *
     * @param payload   the push, metadata only; ownership passes to the handler
     */
    public static void metadataPush(RSocket handler, Payload payload) {
        Mono<Void> result;
        try {
            result = handler.metadataPush(payload);
        } catch (Throwable t) {
            HandlerFailureLog.SHARED.metadataPushFailed(System.nanoTime(), t);
            return;
        }
        drain(result, Drain.NO_STREAM);
    }

    /**
     * Runs a result that goes to nobody to its end, logging its failure. {@code Mono.empty()} and
     * {@code Mono.error(e)}, what most handlers return, already hold their outcome: it is read without
     * subscribing, so that the common case allocates no subscriber.
     */
    private static void drain(Mono<Void> result, int streamId) {
        if (result == null) {
            Drain.failed(streamId, new NullPointerException("the handler returned null"));
        } else if (result instanceof Fuseable.ScalarCallable<?> done) {
            try {
                done.call();
            } catch (Throwable t) {
                Drain.failed(streamId, Exceptions.unwrap(t));
            }
        } else {
            result.subscribe(streamId == Drain.NO_STREAM ? Drain.METADATA_PUSH : new Drain(streamId));
        }
    }

    /** Subscribes to a fire-and-forget or metadata-push result: requests everything, logs a failure. */
    private static final class Drain implements CoreSubscriber<Void> {

        /** The stream id of a metadata-push, which has none (stream 0 is the connection's). */
        static final int NO_STREAM = 0;
        static final Drain METADATA_PUSH = new Drain(NO_STREAM);

        private final int streamId;

        Drain(int streamId) {
            this.streamId = streamId;
        }

        static void failed(int streamId, Throwable t) {
            if (streamId == NO_STREAM) {
                HandlerFailureLog.SHARED.metadataPushFailed(System.nanoTime(), t);
            } else {
                HandlerFailureLog.SHARED.fireAndForgetFailed(System.nanoTime(), streamId, t);
            }
        }

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Void v) {
        }

        @Override
        public void onError(Throwable t) {
            failed(streamId, t);
        }

        @Override
        public void onComplete() {
        }
    }
}
