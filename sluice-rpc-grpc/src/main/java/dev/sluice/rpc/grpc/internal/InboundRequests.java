package dev.sluice.rpc.grpc.internal;

import dev.sluice.rpc.RpcException;
import dev.sluice.rpc.RpcStatus;
import io.grpc.ServerCall;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * A client-streaming or bidirectional call's requests as the {@link Flux} the implementation reads: its
 * subscriber's {@code request(n)} becomes the call's {@code request(n)}, so the client sends no more than was asked
 * for (HTTP/2 flow control holds the rest at the client), and nothing is buffered here. One subscriber.
 *
 * <p>Threads: messages and the end of the stream come from the call's listener, serialized; the subscriber may
 * arrive on any thread, before or after the client half-closed (a client stream of no messages).
 *
 * @param <Q> the request message
 */
final class InboundRequests<Q> extends Flux<Q> implements Subscription {

    private static final int SUBSCRIBED = 1;
    private static final int ENDED = 2;
    private static final AtomicIntegerFieldUpdater<InboundRequests> STATE =
        AtomicIntegerFieldUpdater.newUpdater(InboundRequests.class, "state");

    private final ServerCall<Q, ?> call;
    private volatile int state;
    private volatile CoreSubscriber<? super Q> actual;
    /** How the stream ended: null for the client's half-close, else the error. Written before ENDED is set. */
    private volatile Throwable endError;
    private volatile boolean cancelled;
    private volatile boolean unbounded;

    InboundRequests(ServerCall<Q, ?> call) {
        this.call = call;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Q> subscriber) {
        if (actual != null || (state & SUBSCRIBED) != 0) {
            Operators.error(subscriber, new IllegalStateException("the requests of a call take one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
        int before = STATE.getAndUpdate(this, s -> s | SUBSCRIBED);
        if ((before & ENDED) != 0) {
            deliverEnd();
        }
    }

    /** A request message from the client: only ever delivered as asked for. */
    void onMessage(Q message) {
        if (!cancelled) {
            actual.onNext(message);
        }
    }

    /** The client half-closed ({@code error} null) or the call ended under the stream ({@code error}). */
    void end(Throwable error) {
        endError = error;
        int before = STATE.getAndUpdate(this, s -> s | ENDED);
        if ((before & (SUBSCRIBED | ENDED)) == SUBSCRIBED) {
            deliverEnd();
        }
    }

    /** The call was cancelled by the client: a subscriber still reading sees {@code CANCELLED}. */
    void cancelledByClient() {
        if ((state & ENDED) == 0) {
            end(new RpcException(RpcStatus.CANCELLED, "the client cancelled the call"));
        }
    }

    private void deliverEnd() {
        if (cancelled) {
            return;
        }
        Throwable error = endError;
        if (error == null) {
            actual.onComplete();
        } else {
            actual.onError(error);
        }
    }

    @Override
    public void request(long n) {
        if (!Operators.validate(n) || cancelled || unbounded) {
            return;
        }
        if (n >= Integer.MAX_VALUE) {
            // The call counts requests in an int: ask once for all, and ignore what follows.
            unbounded = true;
            call.request(Integer.MAX_VALUE);
        } else {
            call.request((int) n);
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
    }
}
