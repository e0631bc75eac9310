package dev.sluice.core.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import java.net.SocketAddress;

/**
 * One transport connection as the RSocket engine sees it: whole frames in, batches of frames out, one event loop.
 *
 * <p><b>Threading.</b> Every method except {@link #executor()}, {@link #alloc()} and the address getters must be
 * called on {@link #executor()}; the engine confines all connection state to it. Inbound callbacks on the
 * {@link FrameHandler} arrive there too.
 *
 * <p><b>Framing.</b> When {@link #lengthPrefixed()} is true the engine writes each frame behind a 3-byte length, so
 * that a batch of many frames is a single buffer: TCP sends it as it is, a message-based transport (WebSocket)
 * walks the prefixes and sends each frame as a message of its own. Otherwise every {@link #write} holds exactly one
 * frame, without a prefix, in a buffer of its own.
 */
public interface DuplexConnection {

    /** The allocator for outbound buffers. */
    ByteBufAllocator alloc();

    /** The event loop that owns this connection. */
    EventExecutor executor();

    /** Whether outbound batches carry a 3-byte length prefix before each frame (see the class comment). */
    boolean lengthPrefixed();

    /** Installs the receiver of inbound frames; called once, before the transport starts reading. */
    void start(FrameHandler handler);

    /** Queues outbound bytes without flushing. Takes ownership of {@code frames}. */
    void write(ByteBuf frames);

    /** Flushes what was written. */
    void flush();

    /** Whether the transport's outbound buffer is below its high-water mark. */
    boolean isWritable();

    /** Closes the transport; {@link FrameHandler#onClose} follows. Idempotent. */
    void close();

    /**
     * Closes the transport after a refusal the peer must get to read (ERROR[REJECTED_SETUP]): a transport that can
     * flushes, then reads and drops what still arrives until the peer closes or a short time passes, so that no TCP
     * reset destroys the refusal in the peer's receive buffer. By default the same as {@link #close()}.
     */
    default void closeAfterRefusal() {
        close();
    }

    /** The peer's address, for logs and keys. */
    SocketAddress remoteAddress();

    /** The local address. */
    SocketAddress localAddress();
}
