package dev.sluice.core.internal.stream;

import dev.sluice.frame.Demand;
import org.reactivestreams.Subscription;

/**
 * Passes the demand a peer grants one of our outbound streams (REQUEST_STREAM's or REQUEST_CHANNEL's initial n,
 * then REQUEST_N) on to the local publisher that produces the stream, in batches: credits accumulate in a
 * saturating {@code long} ({@code Long.MAX_VALUE} is unbounded, as 2^31-1 on the wire means); at most
 * {@link #BATCH} are requested upstream at a time; the next batch is requested only once the previous one has
 * arrived, from a new event-loop task, and only while the transport is writable.
 *
 * <p>Why: handed straight to a synchronous publisher ({@code Flux.range}, {@code fromIterable}...), a peer's n is
 * emitted inside that one {@code request(n)} call on the event loop (with 2^31-1, for good) and every element is
 * encoded into the outbound buffer whether or not the socket drains. With batches the event loop gets to read,
 * flush and serve other connections between them, and a peer that stops reading holds us to the transport's
 * high-water mark plus one batch instead of all the memory there is.
 *
 * <p>Event-loop confined. Lifecycle: {@link #start} once the upstream subscription exists, {@link #add} per
 * REQUEST_N, {@link #received} per element written, {@link #stop} when the stream ends.
 */
public final class OutboundDemand implements Runnable {

    /** The most elements requested upstream at a time. */
    public static final int BATCH = 256;

    private final OutboundGate gate;
    private Subscription upstream;
    /** Granted by the peer, not yet requested upstream; {@code Long.MAX_VALUE} = unbounded. */
    private long credits;
    /** Requested upstream, not yet received. */
    private long inFlight;
    /** A {@link #run} is queued (as a task or a writability waiter). */
    private boolean pending;
    private boolean stopped;

    /** @param initialCredits the demand the request frame carried, &ge; 0 */
    public OutboundDemand(OutboundGate gate, long initialCredits) {
        this.gate = gate;
        this.credits = initialCredits;
    }

    /** The upstream subscription exists: requests the first batch. */
    public void start(Subscription s) {
        upstream = s;
        requestMore();
    }

    /** The peer granted {@code n} more (REQUEST_N, already read as {@code Long.MAX_VALUE} for 2^31-1). */
    public void add(long n) {
        credits = Demand.add(credits, n);
        requestMore();
    }

    /** One element arrived from upstream (and was written). */
    public void received() {
        if (inFlight > 0 && --inFlight == 0 && credits > 0 && !pending) {
            // Not inline: the element that completed the batch may still be on the stack of upstream.request().
            pending = true;
            gate.later(this);
        }
    }

    /** The stream ended: nothing more is requested. */
    public void stop() {
        stopped = true;
    }

    /** Credits not yet requested upstream (for tests). */
    public long credits() {
        return credits;
    }

    /** Elements requested upstream and not yet received (for tests). */
    public long inFlight() {
        return inFlight;
    }

    /** The queued continuation: a batch arrived, or the transport became writable. */
    @Override
    public void run() {
        pending = false;
        requestMore();
    }

    private void requestMore() {
        if (stopped || upstream == null || credits == 0 || inFlight > 0 || pending) {
            return;
        }
        if (!gate.writable()) {
            pending = true;
            gate.whenWritable(this);
            return;
        }
        long n = Math.min(credits, BATCH);
        if (credits != Long.MAX_VALUE) {
            credits -= n;
        }
        inFlight = n;
        upstream.request(n);
    }
}
