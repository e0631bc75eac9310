package dev.sluice.core.internal.connection;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A transport for engine tests: the engine runs on the test thread (an embedded event loop whose tasks run on
 * {@link #runPendingTasks()}), frames the engine writes are kept as copies, and tests feed frames in.
 */
final class FakeTransport implements DuplexConnection {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final List<ByteBuf> written = new ArrayList<>();
    FrameHandler handler;
    boolean closed;

    @Override
    public ByteBufAllocator alloc() {
        return PooledByteBufAllocator.DEFAULT;
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    @Override
    public boolean lengthPrefixed() {
        return true;
    }

    @Override
    public void start(FrameHandler handler) {
        this.handler = handler;
    }

    @Override
    public void write(ByteBuf frames) {
        try {
            while (frames.isReadable()) {
                int len = frames.readUnsignedMedium();
                written.add(frames.readBytes(len));
            }
        } finally {
            frames.release();
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            handler.onClose(null);
        }
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 1);
    }

    @Override
    public SocketAddress localAddress() {
        return remoteAddress();
    }

    /** Runs queued tasks (hops and flushes). */
    void runPendingTasks() {
        channel.runPendingTasks();
    }

    /** Stops the event loop's clock for scheduled tasks: from now on only {@link #advanceTimeBy} moves it. */
    void freezeTime() {
        channel.freezeTime();
    }

    /** Moves the frozen clock and runs the scheduled tasks that came due. */
    void advanceTimeBy(long amount, java.util.concurrent.TimeUnit unit) {
        channel.advanceTimeBy(amount, unit);
        channel.runScheduledPendingTasks();
    }

    /** Delivers one frame (no length prefix) as one read burst; releases it. */
    void receive(ByteBuf frame) {
        try {
            handler.onFrame(frame, frame.readerIndex(), frame.readableBytes());
            handler.onReadComplete();
        } finally {
            frame.release();
        }
        runPendingTasks();
    }

    /** Takes the frames written so far; the caller releases them. */
    List<ByteBuf> takeWritten() {
        runPendingTasks();
        List<ByteBuf> out = new ArrayList<>(written);
        written.clear();
        return out;
    }

    /** Releases what was written and not taken. */
    void releaseWritten() {
        written.forEach(ByteBuf::release);
        written.clear();
    }
}
