package dev.sluice.core.internal.stream;

import static dev.sluice.core.internal.stream.StreamState.canSignal;
import static dev.sluice.core.internal.stream.StreamState.isSubscribed;

import dev.sluice.core.Payload;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameData;
import dev.sluice.frame.Fragmenter;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * Fire-and-forget and metadata-push: write one frame on the event loop and complete. No stream is registered:
 * nothing comes back. The frame goes out on subscription, without waiting for demand, as rsocket-java does (made
 * while a read burst is handled, when the burst ends, in order with the other requests it made).
 *
 * <p>The payload belongs to the start task. Nothing follows the frame, so the task ends the stream before it
 * writes: one compare-and-set sets TERMINATED unless a cancel came first (inside {@code onSubscribe}, or from
 * another thread or the same read burst before the task ran), in which case it releases the payload and sends
 * nothing.
 */
public final class RequesterFireAndForget extends Mono<Void> implements Subscription, Runnable {

    private static final AtomicLongFieldUpdater<RequesterFireAndForget> STATE =
        AtomicLongFieldUpdater.newUpdater(RequesterFireAndForget.class, "state");

    private final StreamHost host;
    private final boolean metadataPush;
    private Payload payload;
    private CoreSubscriber<? super Void> actual;
    private volatile long state;

    public RequesterFireAndForget(StreamHost host, Payload payload, boolean metadataPush) {
        this.host = host;
        this.payload = payload;
        this.metadataPush = metadataPush;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Void> subscriber) {
        if (isSubscribed(StreamState.markSubscribed(STATE, this))) {
            Operators.error(subscriber, new IllegalStateException("this Mono allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
        // As a request-response starts: made while a read burst is handled, it waits for the burst's end behind
        // the requests made before it, so that requests leave in the order they were made.
        host.startSoon(this);
    }

    @Override
    public void request(long n) {
    }

    @Override
    public void run() {
        Payload p = payload;
        if (p == null) {
            // Started already: nothing more to do (a guard; each start task is run again at most once).
            return;
        }
        Throwable refused = null;
        if (!metadataPush && canSignal(state)) {
            refused = host.refuseNewRequest(this);
            if (refused == ConnectionLeases.WAITING) {
                // Runs again when a lease permit is there or the wait is over.
                return;
            }
        }
        payload = null;
        if (!canSignal(StreamState.markTerminated(STATE, this))) {
            p.release();
            return;
        }
        int id = 0;
        try {
            if (metadataPush) {
                refused = host.refuseWhenClosed();
            }
            if (refused != null) {
                actual.onError(refused);
                return;
            }
            if (metadataPush) {
                host.writeMetadataPush(p.metadata());
            } else {
                id = host.allocateStreamId();
                if (id < 0) {
                    actual.onError(host.streamIdsExhausted());
                    return;
                }
                if (p instanceof FrameData d) {
                    Frames.write(host, FrameType.REQUEST_FNF, id, 0, 0, p, d);
                } else {
                    Fragmenter.write(host.frames(), host.mtu(), FrameType.REQUEST_FNF, id, 0, 0,
                        Frames.metadataOrNull(p), p.data());
                }
            }
        } catch (RuntimeException e) {
            // The frame is dropped whole (but for fragments already out, which the CANCEL ends).
            if (id > 0) {
                Frames.cancelPartialRequest(host, FrameType.REQUEST_FNF, id, p, e);
            }
            actual.onError(e);
            return;
        } finally {
            p.release();
        }
        actual.onComplete();
    }

    @Override
    public void cancel() {
        // Before the task ran, it sees CANCELLED and drops the payload; after, the frame is out and this is moot.
        StreamState.markCancelled(STATE, this);
    }
}
