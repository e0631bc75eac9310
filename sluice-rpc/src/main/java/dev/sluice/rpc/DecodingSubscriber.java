package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Between the connection's answers to one call and the caller: decodes each payload into the method's response
 * message (releasing it) and turns every failure into an {@link RpcException}, in one subscriber where
 * {@code map(decode).onErrorMap(toStatus)} took two operators, a lambda and two call levels per message. It is
 * also the subscription the caller gets, passing demand and cancellation straight through.
 */
final class DecodingSubscriber<R extends MessageLite> implements CoreSubscriber<Payload>, Subscription {

    private final RpcMethod<?, R> method;
    private final CoreSubscriber<? super R> actual;
    /** Whether the payloads are the responses of a stream (decoded as such, see ProtobufCodec). */
    private final boolean ofStream;
    private Subscription upstream;
    private boolean done;

    DecodingSubscriber(RpcMethod<?, R> method, CoreSubscriber<? super R> actual, boolean ofStream) {
        this.method = method;
        this.actual = actual;
        this.ofStream = ofStream;
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
            message = RpcRequester.decodeAndRelease(method, payload, ofStream);
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
