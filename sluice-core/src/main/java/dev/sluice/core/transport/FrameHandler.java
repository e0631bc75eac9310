package dev.sluice.core.transport;

import io.netty.buffer.ByteBuf;

/**
 * Receives what a {@link DuplexConnection} reads. All calls arrive on the connection's event loop.
 */
public interface FrameHandler {

    /**
     * One whole frame, without its length prefix, at {@code buf[offset, offset + length)}. The buffer is
     * <b>borrowed</b>: valid only during the call; retain a slice to keep any part of it.
     */
    void onFrame(ByteBuf buf, int offset, int length);

    /** The end of a read burst: the engine flushes what the burst produced. */
    void onReadComplete();

    /** The transport's outbound buffer crossed a water mark. */
    void onWritabilityChanged(boolean writable);

    /**
     * The transport failed at the framing level (for example a frame over the length limit); the engine answers
     * with ERROR[CONNECTION_ERROR] quoting {@code message} and closes.
     */
    void onTransportError(String message);

    /** The transport closed; {@code cause} is null for an orderly close. Called once. */
    void onClose(Throwable cause);
}
