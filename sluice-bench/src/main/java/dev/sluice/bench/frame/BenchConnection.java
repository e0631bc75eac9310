package dev.sluice.bench.frame;

import dev.sluice.core.Connection;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;

/**
 * An in-memory transport for benchmarks: a {@link DuplexConnection} whose event loop is the benchmark thread (an
 * embedded loop), which counts and drops what the engine writes, and which keeps the engine's {@link FrameHandler}
 * so that a benchmark can feed it inbound frames in place, exactly as a socket transport does.
 *
 * <p>Not thread-safe: everything runs on the benchmark thread.
 */
final class BenchConnection implements DuplexConnection {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private FrameHandler inbound;
    private Connection connection;
    long bytesWritten;
    long flushes;

    private BenchConnection() {
    }

    /**
     * A client connection opened by {@link RSocketConnector} over a new stand-in, its SETUP sent, serving
     * {@code responder}. A benchmark plays the server by feeding {@link #inbound()} frames (the server's requests
     * use even stream ids).
     */
    static BenchConnection connect(Function<Connection, RSocket> responder) {
        return connect(responder, UnaryOperator.identity());
    }

    /** As {@link #connect(Function)}, with the connector's settings changed by {@code configure} first. */
    static BenchConnection connect(Function<Connection, RSocket> responder,
                                   UnaryOperator<RSocketConnector> configure) {
        BenchConnection transport = new BenchConnection();
        // Keep-alive far longer than a trial, so that no KEEPALIVE frame lands among the measured ones.
        CompletableFuture<Connection> connected = configure.apply(RSocketConnector.create())
            .keepAlive(Duration.ofSeconds(60), Duration.ofSeconds(300))
            .responder(responder)
            .connect(() -> Mono.just(transport))
            .toFuture();
        // The connector opens the connection on the transport's event loop: here, the tasks this thread runs.
        transport.runPendingTasks();
        transport.connection = connected.getNow(null);
        if (transport.connection == null || transport.inbound == null) {
            throw new IllegalStateException("the connector did not open a connection: connection="
                + transport.connection + ", started=" + (transport.inbound != null));
        }
        return transport;
    }

    /** The engine's side of the connection: what a transport calls with every frame it reads. */
    FrameHandler inbound() {
        return inbound;
    }

    /** The requester (and owner) of the connection. */
    Connection connection() {
        return connection;
    }

    /** Runs tasks the engine queued (flushes, hops). */
    void runPendingTasks() {
        channel.runPendingTasks();
    }

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
        this.inbound = handler;
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
        // As the SPI promises: onClose follows a close, once.
        if (channel.isOpen()) {
            channel.close();
            if (inbound != null) {
                inbound.onClose(null);
            }
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
}
