package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * One unary call: the {@code Mono} the caller subscribes to, holding the call's parts, and per subscription one
 * {@link DecodingSubscriber}, the subscriber of the connection's request-response and the subscription handed to
 * the caller. It does what {@code Mono.defer(...).map(decode).onErrorMap(toStatus)} did, without three operators, their
 * subscribers and two capturing lambdas per call, and with fewer call levels between the read loop and the caller.
 *
 * <p>The request is encoded when subscribed (each subscription is a new call, so resubscribing retries); the
 * answer is decoded and its payload released before the caller sees the message; every failure reaches the caller
 * as an {@link RpcException}.
 */
final class UnaryCall<Q extends MessageLite, R extends MessageLite> extends Mono<R> {

    private final RpcRequester requester;
    private final RpcMethod<Q, R> method;
    private final Q request;
    private final RpcMetadata metadata;

    UnaryCall(RpcRequester requester, RpcMethod<Q, R> method, Q request, RpcMetadata metadata) {
        this.requester = requester;
        this.method = method;
        this.request = request;
        this.metadata = metadata;
    }

    @Override
    public void subscribe(CoreSubscriber<? super R> actual) {
        Mono<Payload> call;
        try {
            call = requester.rsocket().requestResponse(requester.opening(method, request, metadata));
        } catch (Throwable t) {
            Operators.error(actual, StatusErrors.fromCall(t));
            return;
        }
        call.subscribe(new DecodingSubscriber<>(method, actual, false));
    }
}
