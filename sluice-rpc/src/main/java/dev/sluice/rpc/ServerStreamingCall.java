package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * One server-streaming call: the {@code Flux} the caller subscribes to, holding the call's parts, and per
 * subscription one {@link DecodingSubscriber} over the connection's request-stream. It does what
 * {@code Flux.defer(...).map(decode).onErrorMap(toStatus)} did with one subscriber per call instead of three, and one
 * call level per response message instead of three. The request is encoded when subscribed, so resubscribing
 * retries; the caller's demand is the REQUEST_N sent to the peer.
 */
final class ServerStreamingCall<Q extends MessageLite, R extends MessageLite> extends Flux<R> {

    private final RpcRequester requester;
    private final RpcMethod<Q, R> method;
    private final Q request;
    private final RpcMetadata metadata;

    ServerStreamingCall(RpcRequester requester, RpcMethod<Q, R> method, Q request, RpcMetadata metadata) {
        this.requester = requester;
        this.method = method;
        this.request = request;
        this.metadata = metadata;
    }

    @Override
    public void subscribe(CoreSubscriber<? super R> actual) {
        Flux<Payload> call;
        try {
            call = requester.rsocket().requestStream(requester.opening(method, request, metadata));
        } catch (Throwable t) {
            Operators.error(actual, StatusErrors.fromCall(t));
            return;
        }
        call.subscribe(new DecodingSubscriber<>(method, actual, true));
    }
}
