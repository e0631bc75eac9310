package dev.sluice.core.internal.connection;

import io.netty.buffer.ByteBuf;

/**
 * The server's answer to a SETUP frame: validates it and runs the acceptor, then calls
 * {@link RSocketConnection#completeSetup} or {@link RSocketConnection#rejectSetup}. Called on the event loop with
 * a frame that passed the frame validator; the buffer is borrowed for the call.
 */
public interface SetupHandler {

    void onSetup(RSocketConnection connection, ByteBuf buf, int offset, int length);
}
