package dev.sluice.core.internal.stream;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.frame.FrameType;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Starts the responder side of a request that arrived whole: calls the handler and subscribes the interaction's
 * stream to its answer. A handler that throws or returns null answers with that error.
 */
public final class Responders {

    private static final Logger log = LoggerFactory.getLogger(Responders.class);

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
                try {
                    handler.fireAndForget(payload).subscribe(Drain.INSTANCE);
                } catch (Throwable t) {
                    log.warn("fire-and-forget handler failed on stream {}", streamId, t);
                }
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

    /** Subscribes to fire-and-forget and metadata-push results: requests everything, logs failures. */
    public static final class Drain implements CoreSubscriber<Void> {
        public static final Drain INSTANCE = new Drain();

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Void v) {
        }

        @Override
        public void onError(Throwable t) {
            log.debug("fire-and-forget or metadata-push handler failed", t);
        }

        @Override
        public void onComplete() {
        }
    }
}
