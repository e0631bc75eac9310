package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One unary call: the {@code Mono} the caller subscribes to, holding the call's parts, and per subscription one
 * {@link Answer}, the subscriber of the connection's request-response and the subscription handed to the caller.
 * It does what {@code Mono.defer(...).map(decode).onErrorMap(toStatus)} did, without three operators, their
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
        call.subscribe(new Answer<>(method, actual));
    }

    /** Between the connection's answer and the caller. */
    private static final class Answer<R extends MessageLite> implements CoreSubscriber<Payload>, Subscription {
        private final RpcMethod<?, R> method;
        private final CoreSubscriber<? super R> actual;
        private Subscription upstream;
        private boolean done;

        Answer(RpcMethod<?, R> method, CoreSubscriber<? super R> actual) {
            this.method = method;
            this.actual = actual;
        }

        @Override
        public Context currentContext() {
            return actual.currentContext();
        }

        @Override
        public void onSubscribe(Subscription s) {
            if (Operators.validate(upstream, s)) {
                upstream = s;
                actual.onSubscribe(this);
            }
        }

        @Override
        public void onNext(Payload payload) {
            if (done) {
                payload.release();
                return;
            }
            R message;
            try {
                message = RpcRequester.decodeAndRelease(method, payload);
            } catch (Throwable t) {
                done = true;
                upstream.cancel();
                actual.onError(StatusErrors.fromCall(t));
                return;
            }
            actual.onNext(message);
        }

        @Override
        public void onError(Throwable t) {
            if (done) {
                return;
            }
            done = true;
            actual.onError(StatusErrors.fromCall(t));
        }

        @Override
        public void onComplete() {
            if (!done) {
                done = true;
                actual.onComplete();
            }
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            upstream.cancel();
        }
    }
}
