package dev.sluice.bench.frame;

import dev.sluice.core.Connection;
import dev.sluice.core.RSocket;
import dev.sluice.core.internal.connection.ConnectionConfig;
import dev.sluice.core.internal.connection.RSocketConnection;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.function.Function;

/**
 * A transport stand-in for benchmarks: runs the engine on the benchmark thread (an embedded event loop), counts
 * and drops what the engine writes.
 */
final class BenchConnection implements DuplexConnection {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    long bytesWritten;
    long flushes;

    /**
     * A client connection over a new stand-in, its SETUP sent, serving {@code handler} — a benchmark plays the
     * server by feeding it frames (the server's requests use even stream ids).
     */
    static Connection connect(BenchConnection transport, Function<Connection, RSocket> handler) {
        ByteBuf setup = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(setup, false, 60_000, 300_000, null, "application/binary", "application/binary", null,
            null);
        ConnectionConfig config = new ConnectionConfig(0, 16 << 20, 100_000, Duration.ofSeconds(60),
            Duration.ofSeconds(300));
        RSocketConnection c = RSocketConnection.client(transport, config, setup, handler);
        transport.runPendingTasks();
        return c.requester();
    }

    @Override
    public ByteBufAllocator alloc() {
        return PooledByteBufAllocator.DEFAULT;
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    /** Runs tasks the engine queued (flushes, hops). */
    void runPendingTasks() {
        channel.runPendingTasks();
    }

    @Override
    public boolean lengthPrefixed() {
        return true;
    }

    /** The engine's inbound side, which benchmarks feed frames to. */
    FrameHandler handler;

    @Override
    public void start(FrameHandler handler) {
        this.handler = handler;
    }

    @Override
    public void write(ByteBuf frames) {
        bytesWritten += frames.readableBytes();
        frames.release();
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 1);
    }

    @Override
    public SocketAddress localAddress() {
        return remoteAddress();
    }
}
