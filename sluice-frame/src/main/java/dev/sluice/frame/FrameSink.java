package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * Where a writer of several frames in a row, such as {@link Fragmenter}, puts them: each frame is encoded into the
 * buffer {@link #begin} returns and closed by {@link #end}.
 *
 * <p>The sink decides what that buffer is: a batch shared by many frames with a transport length prefix in front
 * of each (the engine's writer), one buffer per frame, a test's record. It owns the buffer; the writer appends one
 * whole frame at its writer index between the two calls, keeps no reference to it, and never releases it.
 *
 * <p>Calls come in pairs, {@code begin} then {@code end} (or {@code abort}), never nested. An implementation is
 * usually confined to one thread (an event loop); nothing here asks for more.
 */
public interface FrameSink {

    /**
     * Starts a frame and returns the buffer to encode it into, at its writer index.
     *
     * @param sizeHint the frame's length in bytes, without any transport length prefix; {@link Fragmenter} passes
     *     the exact length, so a sink may size its buffer by it
     */
    ByteBuf begin(int sizeHint);

    /** Finishes the frame begun by the last {@link #begin}: the bytes written to its buffer since then. */
    void end();

    /**
     * Drops the frame begun by the last {@link #begin} instead of finishing it: whatever was written to its buffer
     * since then is discarded, as if the frame had never been begun. Called when a {@link FrameData} fails halfway.
     */
    void abort();
}
