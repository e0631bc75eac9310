package dev.sluice.files.internal;

import java.util.Queue;
import org.reactivestreams.Subscription;
import reactor.core.Fuseable;
import reactor.util.concurrent.Queues;

/**
 * The chunks {@link FileWriteSubscriber} has not written yet: a queue its {@code onNext} fills, or a source that
 * fused synchronously, polled as the drain fills a batch (and the one chunk polled that did not fit it). Settled in
 * {@code onSubscribe}, before the writer's {@code subscribed}; after that, only {@link #offer} is called from the
 * source's thread and everything else from the drain.
 *
 * <h2>Synchronous sources</h2>
 * A source that can fuse synchronously (Reactor's {@link Fuseable#SYNC}: {@code Flux.range(...).map(...)},
 * {@code Flux.fromIterable}, ...) is not asked for chunks at all: the drain polls them from it, one at a time, as it
 * fills a batch, and each chunk is written right after it was made, while its bytes are still in the CPU's cache.
 * (Requested chunks come in bursts, a window ahead of their writes; polling even one chunk ahead, to see whether it
 * fits the batch, cost 2-4% on 1 MiB files.) So another chunk is polled only if it is likely to fit the batch, as
 * one the size of the last would, and while the caps allow: the batch has fewer chunks than {@link
 * GreedDemand#maxItems()} and room, within {@link GreedDemand#maxBytes()}, for one more as large as the largest
 * seen. A chunk polled that does not fit after all is carried to the next batch; the writer never holds more than
 * the batch and that one. Fusion does not move any of the source's work to another thread: without it, every
 * request comes from the drain and a synchronous source emits within it, on the drain's thread, which is where
 * {@code poll} runs it now. So the writer does not ask for a thread barrier.
 *
 * @param <T> the chunk type
 */
final class ChunkBacklog<T> {

    private final ChunkType<T> chunks;
    /** The source, when it fused synchronously: the drain polls it and never requests. */
    private Fuseable.QueueSubscription<T> source;
    /**
     * The chunks received and not yet written, when the source does not fuse: single producer ({@code onNext}),
     * single consumer (the drain, which alone polls and clears it). Made only when the source does not fuse: a
     * fused source never needs it, and at a hundred writes in flight the queues were most of the writers' memory.
     */
    private Queue<T> queue;

    // Owned by the drain.
    /** A chunk polled from {@link #source} that did not fit the batch: the first of the next one. */
    private T carried;
    /** The size of the last chunk polled from {@link #source}: the guess at the next one's. */
    private int lastPolled;
    /** The largest chunk polled from {@link #source}. */
    private int largestPolled;
    /** {@link #source} has no more chunks: its {@code poll} returned null. */
    private boolean sourceEnded;

    ChunkBacklog(ChunkType<T> chunks) {
        this.chunks = chunks;
    }

    /**
     * Settles the mode, in {@code onSubscribe}: fuses with the source if it can fuse synchronously, else makes the
     * queue, of {@code maxItems} chunks.
     */
    void settle(Subscription s, int maxItems) {
        if (s instanceof Fuseable.QueueSubscription<?> queueSubscription) {
            @SuppressWarnings("unchecked")
            Fuseable.QueueSubscription<T> qs = (Fuseable.QueueSubscription<T>) queueSubscription;
            if (qs.requestFusion(Fuseable.SYNC) == Fuseable.SYNC) {
                source = qs;
            }
        }
        if (source == null) {
            queue = Queues.<T>get(maxItems).get();
        }
    }

    /** Whether the source fused: the drain polls it and never requests. */
    boolean fused() {
        return source != null;
    }

    /** Queues a chunk received; false if the queue is full. Only when the source did not fuse. */
    boolean offer(T item) {
        return queue.offer(item);
    }

    /** The first chunk queued, left in the queue; null if none. */
    T peekQueued() {
        return queue.peek();
    }

    /** Takes the first chunk queued; null if none. */
    T pollQueued() {
        return queue.poll();
    }

    /**
     * The next chunk of a fused source: the one carried over from the last batch, else a new one, or null once the
     * source has no more (which then counts as its completion).
     */
    T pollSource() {
        T item = carried;
        if (item != null) {
            carried = null;
            return item;
        }
        if (sourceEnded) {
            return null;
        }
        item = source.poll();
        if (item == null) {
            sourceEnded = true;
            return null;
        }
        int size = chunks.readable(item);
        lastPolled = size;
        if (size > largestPolled) {
            largestPolled = size;
        }
        return item;
    }

    /** Keeps a chunk polled that did not fit the batch, for the next one. */
    void carry(T item) {
        carried = item;
    }

    /** Whether the fused source has run dry: a poll, perhaps while filling a batch, returned null. */
    boolean sourceEnded() {
        return sourceEnded;
    }

    /** The size of the last chunk polled from the fused source. */
    int lastPolled() {
        return lastPolled;
    }

    /** The largest chunk polled from the fused source. */
    int largestPolled() {
        return largestPolled;
    }

    /**
     * The writer has ended: what a fused source still holds is not ours (we never polled it); clearing lets it
     * discard it.
     */
    void clearSource() {
        if (source != null) {
            source.clear();
        }
    }

    /** Releases what is left: the carried chunk and everything queued. */
    void release() {
        T c = carried;
        if (c != null) {
            carried = null;
            chunks.release(c);
        }
        Queue<T> q = queue;
        if (q == null) {
            return; // fused, or never subscribed
        }
        for (T item; (item = q.poll()) != null; ) {
            chunks.release(item);
        }
    }
}
