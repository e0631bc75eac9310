package dev.sluice.rpc.grpc.internal;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;

/**
 * Sends an implementation's responses on a gRPC call, taking them only while the call is ready: at most
 * {@link #BATCH} are asked for ahead of what was sent, and more only once the call's transport buffer has room
 * again ({@code isReady()}, the listener's {@code onReady}). A slow client therefore holds the producer back instead
 * of filling the server's heap. Ends the call with OK, or with the failure's status.
 *
 * <p>Threads: {@code onNext}/{@code onComplete}/{@code onError} (serialized by the publisher) are the only callers
 * of the call's send and close methods; {@link #onReady()} and {@link #cancel()} come from the call's listener and
 * touch only the subscription, which is thread-safe, and the {@code outstanding} count, which is atomic.
 *
 * @param <R> the response message
 */
final class ResponseSender<R> implements CoreSubscriber<R> {

    /** How many responses may be asked for ahead of the sent ones; replenished once fewer than LOW are owed. */
    static final int BATCH = 32;
    private static final int LOW = BATCH / 4;

    private static final AtomicIntegerFieldUpdater<ResponseSender> OUTSTANDING =
        AtomicIntegerFieldUpdater.newUpdater(ResponseSender.class, "outstanding");

    private final ServerCall<?, R> call;
    private final String methodName;
    /** Unary: the implementation answers exactly once, so it is asked for everything at once. */
    private final boolean single;
    private volatile Subscription subscription;
    /** Responses asked for and not yet received. */
    private volatile int outstanding;
    private volatile boolean cancelled;
    private boolean headersSent;
    private boolean answered;
    private boolean done;

    ResponseSender(ServerCall<?, R> call, boolean single) {
        this.call = call;
        this.methodName = call.getMethodDescriptor().getFullMethodName();
        this.single = single;
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (!Operators.validate(subscription, s)) {
            return;
        }
        subscription = s;
        if (cancelled) {
            s.cancel();
        } else if (single) {
            s.request(Long.MAX_VALUE);
        } else {
            replenish();
        }
    }

    @Override
    public void onNext(R response) {
        if (done || cancelled) {
            return;
        }
        if (single && answered) {
            done = true;
            subscription.cancel();
            call.close(Status.INTERNAL.withDescription("the handler of " + methodName + " answered twice"),
                new Metadata());
            return;
        }
        send(response);
        if (!single) {
            OUTSTANDING.decrementAndGet(this);
            replenish();
        }
    }

    @Override
    public void onError(Throwable t) {
        if (done || cancelled) {
            return;
        }
        done = true;
        call.close(GrpcStatuses.of(t), new Metadata());
    }

    @Override
    public void onComplete() {
        if (done || cancelled) {
            return;
        }
        done = true;
        if (single && !answered) {
            call.close(Status.INTERNAL.withDescription("the handler of " + methodName
                + " completed without a response"), new Metadata());
            return;
        }
        call.close(Status.OK, new Metadata());
    }

    /** Sends one response; the first sends the headers before it. */
    void send(R response) {
        if (!headersSent) {
            headersSent = true;
            call.sendHeaders(new Metadata());
        }
        answered = true;
        call.sendMessage(response);
    }

    /** The call can take more: ask for responses up to {@link #BATCH} ahead. From the listener. */
    void onReady() {
        if (!single) {
            replenish();
        }
    }

    /** The client went away (cancelled, deadline, connection lost): stop the implementation. From the listener. */
    void cancel() {
        cancelled = true;
        Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    private void replenish() {
        Subscription s = subscription;
        if (s == null || cancelled) {
            return;
        }
        // The count first: isReady() takes the stream's lock, and most responses leave enough owed.
        int owed;
        while ((owed = outstanding) <= LOW && call.isReady()) {
            if (OUTSTANDING.compareAndSet(this, owed, BATCH)) {
                s.request(BATCH - owed);
                return;
            }
        }
    }
}
