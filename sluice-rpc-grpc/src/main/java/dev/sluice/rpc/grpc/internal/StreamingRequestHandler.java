package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.MessageLite;
import dev.sluice.rpc.BoundMethod;
import dev.sluice.rpc.RpcMetadata;
import dev.sluice.rpc.RpcMethod;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import org.reactivestreams.Publisher;

/**
 * Serves a method that takes a stream of requests (client streaming, bidirectional) to gRPC calls: the
 * implementation is called at once with the requests as a {@link InboundRequests flux} it reads at its own pace,
 * and its responses go out through a {@link ResponseSender}. Immutable and thread-safe; one {@link Listener} per
 * call.
 *
 * @param <Q> the request message
 * @param <R> the response message
 */
public final class StreamingRequestHandler<Q extends MessageLite, R extends MessageLite>
    implements ServerCallHandler<Q, R> {

    private final BoundMethod<Q, R> bound;

    public StreamingRequestHandler(BoundMethod<Q, R> bound) {
        this.bound = bound;
    }

    @Override
    public ServerCall.Listener<Q> startCall(ServerCall<Q, R> call, Metadata headers) {
        InboundRequests<Q> requests = new InboundRequests<>(call);
        RpcMetadata metadata = CallHeaders.of(headers);
        boolean single = bound.method().kind() == RpcMethod.Kind.CLIENT_STREAMING;
        ResponseSender<R> sender = new ResponseSender<>(call, single);
        Listener listener = new Listener(requests, sender);
        Publisher<R> responses = single ? bound.clientStreaming(requests, metadata)
            : bound.bidiStreaming(requests, metadata);
        responses.subscribe(sender);
        return listener;
    }

    private final class Listener extends ServerCall.Listener<Q> {
        private final InboundRequests<Q> requests;
        private final ResponseSender<R> sender;

        Listener(InboundRequests<Q> requests, ResponseSender<R> sender) {
            this.requests = requests;
            this.sender = sender;
        }

        @Override
        public void onMessage(Q message) {
            requests.onMessage(message);
        }

        @Override
        public void onHalfClose() {
            requests.end(null);
        }

        @Override
        public void onReady() {
            sender.onReady();
        }

        @Override
        public void onCancel() {
            sender.cancel();
            requests.cancelledByClient();
        }
    }
}
