package dev.sluice.core.internal.connection;

import dev.sluice.frame.ErrorCodes;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * A server connection's side of the handshake: the deadline for the first frame, SETUP handed to the
 * {@link SetupHandler}, and the frames that arrive while the acceptor runs, held (within the inbound payload
 * bound) and replayed once it accepted. Event-loop confined.
 */
final class ServerHandshake {

    private final RSocketConnection connection;
    private final SetupHandler setupHandler;
    private final int maxQueuedBytes;
    private ScheduledFuture<?> deadline;
    private ArrayDeque<ByteBuf> queued;
    private int queuedBytes;

    ServerHandshake(RSocketConnection connection, SetupHandler setupHandler, int maxQueuedBytes) {
        this.connection = connection;
        this.setupHandler = setupHandler;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** Refuses the connection if no SETUP arrives within {@code timeToFirstFrame}. */
    void startDeadline(Duration timeToFirstFrame) {
        deadline = connection.loop().schedule(() -> {
            if (connection.awaitingSetup()) {
                connection.connectionError(ErrorCodes.INVALID_SETUP,
                    "no SETUP frame received within maxTimeToFirstFrame=" + timeToFirstFrame.toMillis() + " ms");
            }
        }, timeToFirstFrame.toNanos(), TimeUnit.NANOSECONDS);
    }

    void onSetup(ByteBuf buf, int off, int len) {
        setupHandler.onSetup(connection, buf, off, len);
    }

    /** Holds a frame that arrived while the acceptor runs; false when that exceeds the bound. */
    boolean hold(ByteBuf buf, int off, int len) {
        if (queued == null) {
            queued = new ArrayDeque<>();
        }
        queuedBytes += len;
        if (queuedBytes > maxQueuedBytes) {
            connection.connectionError(ErrorCodes.CONNECTION_ERROR, "more than " + maxQueuedBytes
                + " bytes of frames arrived while the server was still accepting the connection");
            return false;
        }
        queued.add(buf.retainedSlice(off, len));
        return true;
    }

    /** The acceptor accepted: the held frames go through {@code connection.onFrame}, in order. */
    void replayHeld() {
        ArrayDeque<ByteBuf> q = queued;
        queued = null;
        if (q == null) {
            return;
        }
        for (ByteBuf f; (f = q.poll()) != null; ) {
            try {
                if (!connection.isDisposed()) {
                    connection.onFrame(f, f.readerIndex(), f.readableBytes());
                }
            } finally {
                f.release();
            }
        }
    }

    void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    /** The connection closed: drops what is held. */
    void close() {
        cancelDeadline();
        if (queued != null) {
            for (ByteBuf f; (f = queued.poll()) != null; ) {
                f.release();
            }
        }
    }
}
