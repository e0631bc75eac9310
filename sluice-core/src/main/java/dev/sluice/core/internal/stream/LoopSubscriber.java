package dev.sluice.core.internal.stream;

import dev.sluice.core.Payload;
import io.netty.util.concurrent.EventExecutor;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.util.concurrent.Queues;

/**
 * A subscriber to a publisher of payloads (a handler's answer, a requester channel's outbound side) whose signals
 * are handled on the connection's event loop, in order, without allocating per signal.
 *
 * <p>A signal that arrives on the event loop with nothing queued ahead of it is handled at once — the common case,
 * no hop. Any other is put in a bounded single-producer queue (Reactive Streams serializes a publisher's signals,
 * so there is one producer at a time) and the caller that raises the work-in-progress count from 0 schedules this
 * object itself as the drain task, as Reactor's operators do. The queue is made on the first hop only; it holds
 * what the subscriber requested, so a publisher that emits beyond its demand fails with an overflow error.
 *
 * <p>Subclasses implement the {@code handleX} methods, all called on the event loop, and use {@link #upstream}
 * from there.
 */
public abstract class LoopSubscriber implements CoreSubscriber<Payload>, Runnable {

    private static final AtomicIntegerFieldUpdater<LoopSubscriber> WIP =
        AtomicIntegerFieldUpdater.newUpdater(LoopSubscriber.class, "wip");
    private static final Object COMPLETE = new Object();

    private final EventExecutor loop;
    private final int capacity;
    private volatile int wip;
    private volatile Queue<Object> queue;
    private volatile boolean overflowed;
    /** The subscription, once handled; event loop only. */
    protected Subscription upstream;

    /** @param capacity the most signals that can wait for the event loop: requested elements plus two */
    protected LoopSubscriber(EventExecutor loop, int capacity) {
        this.loop = loop;
        this.capacity = capacity;
    }

    @Override
    public final void onSubscribe(Subscription s) {
        signal(s);
    }

    @Override
    public final void onNext(Payload p) {
        signal(p);
    }

    @Override
    public final void onError(Throwable t) {
        signal(new Failure(t));
    }

    @Override
    public final void onComplete() {
        signal(COMPLETE);
    }

    private void signal(Object signal) {
        if (wip == 0 && loop.inEventLoop()) {
            dispatch(signal);
            return;
        }
        Queue<Object> q = queue;
        if (q == null) {
            q = Queues.get(capacity).get();
            queue = q;
        }
        if (!q.offer(signal)) {
            discard(signal);
            overflowed = true;
        }
        if (WIP.getAndIncrement(this) == 0) {
            loop.execute(this);
        }
    }

    /** The drain task: handles what was queued, in order. */
    @Override
    public final void run() {
        int missed = 1;
        for (;;) {
            Queue<Object> q = queue;
            for (Object signal; (signal = q.poll()) != null; ) {
                dispatch(signal);
            }
            if (overflowed) {
                overflowed = false;
                if (upstream != null) {
                    upstream.cancel();
                }
                handleError(Exceptions.failWithOverflow("the publisher emitted more than the "
                    + capacity + " signals its subscriber had room for"));
            }
            missed = WIP.addAndGet(this, -missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void dispatch(Object signal) {
        if (signal instanceof Payload p) {
            handleNext(p);
        } else if (signal == COMPLETE) {
            handleComplete();
        } else if (signal instanceof Failure f) {
            handleError(f.error);
        } else {
            upstream = (Subscription) signal;
            handleSubscribe(upstream);
        }
    }

    private static void discard(Object signal) {
        if (signal instanceof Payload p) {
            p.release();
        } else if (signal instanceof Subscription s) {
            s.cancel();
        }
    }

    /** Cancels the upstream subscription, if there is one yet (event loop). */
    protected final void cancelUpstream() {
        if (upstream != null) {
            upstream.cancel();
        }
    }

    /** The subscription arrived; {@link #upstream} is set. Cancel it if the stream has ended meanwhile. */
    protected abstract void handleSubscribe(Subscription s);

    /** An element; takes ownership of {@code p}. */
    protected abstract void handleNext(Payload p);

    protected abstract void handleError(Throwable t);

    protected abstract void handleComplete();

    /** An error signal in the queue; the only signal that costs an object, and only on the hop path. */
    private record Failure(Throwable error) {
    }
}
