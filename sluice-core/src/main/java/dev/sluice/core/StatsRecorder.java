package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import reactor.core.publisher.SignalType;

/**
 * Hears what a connection's responder does, so that a lease sender can size its leases from it (latency per call,
 * counts of accepted and rejected requests). One recorder serves one connection.
 *
 * <p>All callbacks run on the connection's event loop, in this order per request: {@link #onRequestStarted},
 * {@link #onResponseStarted}, {@link #onResponseTerminated}. Keep them cheap: they are on the request path.
 *
 * @param <T> the logical call a request belongs to (for example {@code "service/method"} read from metadata)
 */
public interface StatsRecorder<T> {

    /**
     * A request arrived (before the lease check).
     *
     * @param metadata the request's metadata, borrowed for the call (empty when absent)
     * @return the logical call, handed back in the other callbacks (may be null)
     */
    T onRequestStarted(RequestType type, ByteBuf metadata);

    /**
     * The response produced its first signal: {@code ON_NEXT}, {@code ON_COMPLETE}, {@code ON_ERROR} or
     * {@code CANCEL}, {@code latencyNanos} after the request arrived. A request rejected by the lease is reported
     * here with {@code ON_ERROR} and latency 0, and {@code rejected} true.
     */
    void onResponseStarted(RequestType type, T call, SignalType firstSignal, long latencyNanos, boolean rejected);

    /** The response ended with {@code lastSignal} ({@code ON_COMPLETE}, {@code ON_ERROR} or {@code CANCEL}). */
    void onResponseTerminated(RequestType type, T call, SignalType lastSignal);

    /** The connection closed; no more callbacks follow. */
    default void onConnectionClosed() {
    }
}
