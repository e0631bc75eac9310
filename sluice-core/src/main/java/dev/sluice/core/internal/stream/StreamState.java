package dev.sluice.core.internal.stream;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.reactivestreams.Subscriber;

/**
 * The one state word of a stream: which steps of its life have happened, and the demand its subscriber signalled
 * that the event loop has not taken yet, packed into a {@code long} so that subscribe, request(n) and cancel from
 * any thread and frames on the event loop agree through a single compare-and-set.
 *
 * <pre>
 *  63        39 38  37  36  35  34  33  32 31                                0
 * +------------+---+---+---+---+---+---+---+-----------------------------------+
 * |  (unused)  | B | T | C | O | I | F | S |  demand, saturating at 2^31-1     |
 * +------------+---+---+---+---+---+---+---+-----------------------------------+
 * </pre>
 *
 * S subscribed; F first frame sent (the request is on the wire, or a responder started); I inbound done (the peer
 * sent its last frame for this stream); O outbound done (we sent ours); C cancelled by the local subscriber;
 * T terminated (the local subscriber got its terminal signal, or the stream failed); B bad request (the subscriber
 * called {@code request(n)} with n &lt;= 0: the stream is cancelled, and whoever handles that cancel owes the
 * subscriber an {@code IllegalArgumentException}, Reactive Streams rule 3.9). Each direction completes on
 * its own: a stream leaves the connection's registry when both I and O are set, or at once on ERROR or cancel.
 *
 * <p>The demand saturates at {@link #UNBOUNDED} = 2^31-1, the wire's "unbounded" (as rsocket-java reads it), so
 * taking it yields exactly what a REQUEST_N can carry.
 *
 * <p>Transitions are static so that each interaction class keeps its own {@code volatile long} and pays no extra
 * object: every {@code markX} returns the state before it ran, and is a no-op where the comment says so.
 * Thread-safe.
 */
public final class StreamState {

    /** The demand bits' value for "unbounded". */
    public static final long UNBOUNDED = Integer.MAX_VALUE;
    static final long DEMAND_MASK = 0xFFFF_FFFFL;
    public static final long SUBSCRIBED = 1L << 32;
    public static final long FIRST_FRAME_SENT = 1L << 33;
    public static final long INBOUND_DONE = 1L << 34;
    public static final long OUTBOUND_DONE = 1L << 35;
    public static final long CANCELLED = 1L << 36;
    public static final long TERMINATED = 1L << 37;
    public static final long BAD_REQUEST = 1L << 38;

    private StreamState() {
    }

    /** Sets SUBSCRIBED; no-op if it was set already (a second subscriber, which the caller refuses). */
    public static <T> long markSubscribed(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, SUBSCRIBED, SUBSCRIBED);
    }

    /**
     * Adds {@code n} (&gt; 0) to the demand, saturating at {@link #UNBOUNDED}; no-op once cancelled or terminated.
     * The caller for whom the returned state {@link #wasIdle} schedules the event loop's work.
     */
    public static <T> long addDemand(AtomicLongFieldUpdater<T> updater, T stream, long n) {
        for (;;) {
            long s = updater.get(stream);
            if ((s & (CANCELLED | TERMINATED)) != 0) {
                return s;
            }
            long d = (s & DEMAND_MASK) + n;
            if (d > UNBOUNDED || d < 0) {
                d = UNBOUNDED;
            }
            if (updater.compareAndSet(stream, s, (s & ~DEMAND_MASK) | d)) {
                return s;
            }
        }
    }

    /**
     * Whether an {@link #addDemand} that returned {@code previous} raised the demand from 0 on a live stream: only
     * then is there work no task is queued for yet. A request after a cancel added nothing and schedules nothing.
     */
    public static boolean wasIdle(long previous) {
        return (previous & DEMAND_MASK) == 0 && canSignal(previous);
    }

    /** Takes the demand (leaves 0); read it from the returned state with {@link #demand}. */
    public static <T> long takeDemand(AtomicLongFieldUpdater<T> updater, T stream) {
        for (;;) {
            long s = updater.get(stream);
            if ((s & DEMAND_MASK) == 0 || updater.compareAndSet(stream, s, s & ~DEMAND_MASK)) {
                return s;
            }
        }
    }

    /** Sets FIRST_FRAME_SENT; no-op once cancelled or terminated (the request must not go out then). */
    public static <T> long markFirstFrameSent(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, FIRST_FRAME_SENT, CANCELLED | TERMINATED);
    }

    /**
     * {@link #markFirstFrameSent} by a plain read and an ordered store, for a request-response or fire-and-forget
     * whose only writers before the start are its subscriber's serial calls: subscribe, request and cancel
     * (Reactive Streams §2.7; a second subscriber finds SUBSCRIBED set and writes nothing) — the event loop writes
     * nothing until the start is claimed. One atomic instruction less per request.
     */
    public static <T> long markFirstFrameSentBySubscriber(AtomicLongFieldUpdater<T> updater, T stream) {
        long s = updater.get(stream);
        if ((s & (CANCELLED | TERMINATED | FIRST_FRAME_SENT)) == 0) {
            updater.lazySet(stream, s | FIRST_FRAME_SENT);
        }
        return s;
    }

    /** Sets INBOUND_DONE. */
    public static <T> long markInboundDone(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, INBOUND_DONE, 0);
    }

    /** Sets OUTBOUND_DONE. */
    public static <T> long markOutboundDone(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, OUTBOUND_DONE, 0);
    }

    /**
     * Sets CANCELLED; no-op once terminated or once the inbound side is done: a subscriber's cancel after its
     * terminal signal changes nothing (Reactive Streams rule 3.7), so the outbound side of a channel goes on.
     */
    public static <T> long markCancelled(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, CANCELLED, TERMINATED | INBOUND_DONE);
    }

    /**
     * Sets CANCELLED and BAD_REQUEST, for a {@code request(n)} with n &lt;= 0: the stream is cancelled as by
     * {@link #markCancelled}, and whoever handles that cancel then signals the error
     * ({@link #signalBadRequest}). No-op where {@link #markCancelled} is, and once cancelled: after a cancel, a request
     * does nothing (Reactive Streams rule 3.6).
     */
    public static <T> long markBadRequest(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, CANCELLED | BAD_REQUEST, TERMINATED | INBOUND_DONE | CANCELLED);
    }

    /**
     * For whoever handled a cancel: if it came from a bad request, signals {@code subscriber} the error, once
     * ({@link #takeBadRequest}).
     */
    public static <T> void signalBadRequest(AtomicLongFieldUpdater<T> updater, T stream,
                                            Subscriber<?> subscriber) {
        if (takeBadRequest(updater, stream)) {
            subscriber.onError(Errors.badRequest());
        }
    }

    /**
     * Clears BAD_REQUEST; true for the one caller that found it set, which signals the subscriber the error. The
     * other signals stay away meanwhile: the stream is cancelled, so {@link #canSignal} is false for them.
     */
    static <T> boolean takeBadRequest(AtomicLongFieldUpdater<T> updater, T stream) {
        for (;;) {
            long s = updater.get(stream);
            if ((s & BAD_REQUEST) == 0) {
                return false;
            }
            if (updater.compareAndSet(stream, s, s & ~BAD_REQUEST)) {
                return true;
            }
        }
    }

    /**
     * Sets TERMINATED and both directions done. The caller may signal the subscriber only if the returned state
     * {@link #canSignal}: neither cancelled nor terminated before.
     */
    public static <T> long markTerminated(AtomicLongFieldUpdater<T> updater, T stream) {
        return setUnless(updater, stream, TERMINATED | INBOUND_DONE | OUTBOUND_DONE, TERMINATED);
    }

    /**
     * {@link #markTerminated} by a plain read and an ordered store, on the event loop, for a stream whose only
     * other writer by then is a cancel, and whose cancel does its work in a task on the event loop: a cancel that
     * lands between the read and the store is overwritten, its task then finds the stream ended and does
     * nothing, and the subscriber gets the answer it cancelled (which Reactive Streams §2.8 allows). One atomic
     * instruction less per answer.
     */
    public static <T> long markTerminatedByLoop(AtomicLongFieldUpdater<T> updater, T stream) {
        long s = updater.get(stream);
        if ((s & TERMINATED) == 0) {
            updater.lazySet(stream, s | TERMINATED | INBOUND_DONE | OUTBOUND_DONE);
        }
        return s;
    }

    /** The demand in {@code state}: {@link Long#MAX_VALUE} for unbounded, as Reactive Streams counts it. */
    public static long demand(long state) {
        long d = state & DEMAND_MASK;
        return d == UNBOUNDED ? Long.MAX_VALUE : d;
    }

    public static boolean isSubscribed(long state) {
        return (state & SUBSCRIBED) != 0;
    }

    public static boolean isFirstFrameSent(long state) {
        return (state & FIRST_FRAME_SENT) != 0;
    }

    public static boolean isInboundDone(long state) {
        return (state & INBOUND_DONE) != 0;
    }

    public static boolean isOutboundDone(long state) {
        return (state & OUTBOUND_DONE) != 0;
    }

    public static boolean isCancelled(long state) {
        return (state & CANCELLED) != 0;
    }

    public static boolean isTerminated(long state) {
        return (state & TERMINATED) != 0;
    }

    /**
     * Whether the local subscriber may still get a signal: not cancelled, not terminated, and (for a requester,
     * whose subscriber the peer's frames feed) the inbound side not done.
     */
    public static boolean canSignal(long state) {
        return (state & (CANCELLED | TERMINATED | INBOUND_DONE)) == 0;
    }

    /** Whether nothing more may be sent on the outbound side: done, cancelled or terminated. */
    public static boolean isOutboundClosed(long state) {
        return (state & (OUTBOUND_DONE | CANCELLED | TERMINATED)) != 0;
    }

    /** Whether both directions are done: the stream can leave the registry. */
    public static boolean bothDone(long state) {
        return (state & (INBOUND_DONE | OUTBOUND_DONE)) == (INBOUND_DONE | OUTBOUND_DONE);
    }

    /** For messages and tests: the flags by letter and the demand. */
    public static String toString(long state) {
        return (isSubscribed(state) ? "S" : "-") + (isFirstFrameSent(state) ? "F" : "-")
            + (isInboundDone(state) ? "I" : "-") + (isOutboundDone(state) ? "O" : "-")
            + (isCancelled(state) ? "C" : "-") + (isTerminated(state) ? "T" : "-")
            + ((state & BAD_REQUEST) != 0 ? "B" : "-") + " demand=" + demand(state);
    }

    /** Sets {@code bits} unless any of {@code unless} is set (or the bits are all set already). */
    private static <T> long setUnless(AtomicLongFieldUpdater<T> updater, T stream, long bits, long unless) {
        for (;;) {
            long s = updater.get(stream);
            if ((s & unless) != 0 || (s & bits) == bits) {
                return s;
            }
            if (updater.compareAndSet(stream, s, s | bits)) {
                return s;
            }
        }
    }
}
