package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.sluice.rpc.BoundMethod;
import dev.sluice.rpc.RpcMetadata;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;

/**
 * Serves a method that takes one request (unary, fire-and-forget, server streaming) to gRPC calls: waits for the
 * request and the client's half-close, then calls the implementation. A unary handler's constant answer is sent
 * at once, without subscribing; a fire-and-forget method answers {@code google.protobuf.Empty} when its handler
 * completes. Immutable and thread-safe; one {@link Listener} per call.
 *
 * @param <Q> the request message
 * @param <R> the response message
 */
public final class SingleRequestHandler<Q extends MessageLite, R extends MessageLite>
    implements ServerCallHandler<Q, R> {

    private final BoundMethod<Q, R> bound;
    /** What a fire-and-forget method answers: its response type's ({@code Empty}'s) default instance. */
    private final R emptyResponse;

    @SuppressWarnings("unchecked")
    public SingleRequestHandler(BoundMethod<Q, R> bound) {
        this.bound = bound;
        try {
            this.emptyResponse = (R) bound.method().responseParser().parsePartialFrom(ByteString.EMPTY)
                .getDefaultInstanceForType();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("cannot read an empty response of " + bound.method(), e);
        }
    }

    @Override
    public ServerCall.Listener<Q> startCall(ServerCall<Q, R> call, Metadata headers) {
        // Two, as grpc-java's own unary handling asks: a second message is a client's error to report.
        call.request(2);
        return new Listener(call, headers);
    }

    private final class Listener extends ServerCall.Listener<Q> {
        private final ServerCall<Q, R> call;
        private final Metadata headers;
        private ResponseSender<R> sender;
        private Q request;
        private boolean refused;

        Listener(ServerCall<Q, R> call, Metadata headers) {
            this.call = call;
            this.headers = headers;
        }

        @Override
        public void onMessage(Q message) {
            if (refused) {
                return;
            }
            if (request != null) {
                // grpc-java's own server call refuses a second request before delivering it; this guards any
                // other ServerCall.
                refused = true;
                call.close(Status.INTERNAL.withDescription("more than one request for "
                    + bound.method().fullName()), new Metadata());
                return;
            }
            request = message;
        }

        @Override
        public void onHalfClose() {
            if (refused) {
                return;
            }
            if (request == null) {
                refused = true;
                call.close(Status.INTERNAL.withDescription("half-closed without a request for "
                    + bound.method().fullName()), new Metadata());
                return;
            }
            RpcMetadata metadata = CallHeaders.of(headers);
            Q q = request;
            request = null;
            switch (bound.method().kind()) {
                case UNARY -> unary(q, metadata);
                case FIRE_AND_FORGET -> subscribe(bound.fireAndForget(q, metadata).thenReturn(emptyResponse), true);
                default -> subscribe(bound.serverStreaming(q, metadata), false);
            }
        }

        private void unary(Q q, RpcMetadata metadata) {
            Publisher<R> response = bound.unary(q, metadata);
            if (response instanceof Fuseable.ScalarCallable<?> constant) {
                answerNow(constant);
            } else {
                subscribe(response, true);
            }
        }

        @SuppressWarnings("unchecked")
        private void answerNow(Fuseable.ScalarCallable<?> constant) {
            ResponseSender<R> now = new ResponseSender<>(call, true);
            R value;
            try {
                value = (R) constant.call();
            } catch (Throwable t) {
                now.onError(t);
                return;
            }
            if (value != null) {
                now.send(value);
            }
            now.onComplete();
        }

        private void subscribe(Publisher<R> responses, boolean single) {
            sender = new ResponseSender<>(call, single);
            responses.subscribe(sender);
        }

        @Override
        public void onReady() {
            ResponseSender<R> s = sender;
            if (s != null) {
                s.onReady();
            }
        }

        @Override
        public void onCancel() {
            request = null;
            ResponseSender<R> s = sender;
            if (s != null) {
                s.cancel();
            }
        }
    }
}
