package dev.sluice.core.internal;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.MetadataPushFrame;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * Fire-and-forget and metadata-push: write one frame on the event loop and complete. No stream is registered:
 * nothing comes back.
 */
final class RequesterFireAndForget extends Mono<Void> implements Subscription, Runnable {

    private static final int NEW = 0;
    private static final int SUBSCRIBED = 1;
    private static final int REQUESTED = 2;
    private static final int DONE = 3;
    private static final AtomicIntegerFieldUpdater<RequesterFireAndForget> STATE =
        AtomicIntegerFieldUpdater.newUpdater(RequesterFireAndForget.class, "state");

    private final RSocketConnection connection;
    private final boolean metadataPush;
    private Payload payload;
    private CoreSubscriber<? super Void> actual;
    private volatile int state;

    RequesterFireAndForget(RSocketConnection connection, Payload payload, boolean metadataPush) {
        this.connection = connection;
        this.payload = payload;
        this.metadataPush = metadataPush;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Void> subscriber) {
        if (!STATE.compareAndSet(this, NEW, SUBSCRIBED)) {
            Operators.error(subscriber, new IllegalStateException("this Mono allows one subscriber"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
        // Fire-and-forget needs no demand: the frame goes out on subscription, like rsocket-java.
        if (STATE.compareAndSet(this, SUBSCRIBED, REQUESTED)) {
            connection.execute(this);
        }
    }

    @Override
    public void request(long n) {
    }

    @Override
    public void run() {
        Payload p = payload;
        payload = null;
        if (!STATE.compareAndSet(this, REQUESTED, DONE)) {
            if (p != null) {
                p.release();
            }
            return;
        }
        try {
            Throwable refused = metadataPush ? connection.refuseWhenClosed() : connection.refuseNewRequest();
            if (refused != null) {
                actual.onError(refused);
                return;
            }
            if (metadataPush) {
                ByteBuf md = p.metadata();
                ByteBuf out = connection.writer().begin(MetadataPushFrame.encodedLength(md));
                MetadataPushFrame.encode(out, md);
                connection.writer().end();
            } else {
                int id = connection.allocateStreamId();
                if (id < 0) {
                    actual.onError(connection.streamIdsExhausted());
                    return;
                }
                connection.writer().writePayloadBearing(FrameType.REQUEST_FNF, id, 0, 0,
                    Frames.metadataOrNull(p), p.data());
            }
        } finally {
            p.release();
        }
        actual.onComplete();
    }

    @Override
    public void cancel() {
        if (STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
            // Cancelled inside onSubscribe: the send was never queued, so the payload is still ours.
            Payload p = payload;
            payload = null;
            p.release();
        }
        // A cancel after REQUESTED races with run(); run() owns the payload then, and the frame may still go.
    }
}
