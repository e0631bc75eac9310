package dev.sluice.core.internal.stream;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RSocketErrorException;

/**
 * One active stream of a connection, as the inbound dispatcher sees it: the frames the peer may send on it.
 * An interface so that the reactive object of an interaction can be its own registry entry (one allocation).
 *
 * <p>All methods run on the connection's event loop. The defaults treat a frame as not expected on this kind of
 * stream: payloads are released, the rest ignored (the spec's "ignore what you do not expect").
 */
public interface Stream {

    /** A PAYLOAD with NEXT; {@code complete} when it also carries COMPLETE. Takes ownership of {@code payload}. */
    default void onNextFrame(Payload payload, boolean complete) {
        payload.release();
    }

    /** A PAYLOAD with COMPLETE and no NEXT. */
    default void onCompleteFrame() {
    }

    /** An ERROR frame on this stream. */
    default void onErrorFrame(RSocketErrorException error) {
    }

    /** A REQUEST_N frame: more demand from the peer. */
    default void onRequestN(long n) {
    }

    /** A CANCEL frame. */
    default void onCancel() {
    }

    /**
     * The connection is gone, or the stream failed locally: terminate downstream with {@code cause} and release
     * what is held. The stream has already been removed from the registry; it must not write frames.
     */
    void onConnectionClosed(Throwable cause);
}
