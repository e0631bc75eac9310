package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.FrameDecoder;
import dev.sluice.transport.netty.internal.NettyDuplexConnection;
import dev.sluice.transport.netty.internal.UnixDomainSockets;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * A Unix domain socket client transport: length-prefixed RSocket frames, as over TCP, to a server's socket file
 * ({@link UnixServerTransport}, or rsocket-java's, or any peer that frames the same way). Native epoll when the
 * process runs on it, NIO on the JDK's support otherwise.
 *
 * <p>Not thread-safe while being configured; each {@link #connect} opens a new connection.
 */
public final class UnixClientTransport implements ClientTransport {

    private final Path path;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration connectTimeout = Duration.ofSeconds(10);
    /** Test seam: the I/O to run on, null for the process's shared event loops. */
    private EventLoopGroup workers;
    private boolean epollLoops;

    private UnixClientTransport(Path path) {
        this.path = UnixDomainSockets.checkPath(path);
    }

    /**
     * Connects to the socket file {@code path}.
     *
     * @throws IllegalArgumentException if the path is empty or longer than
     *                                  {@link UnixServerTransport#MAX_PATH_BYTES} bytes in UTF-8
     */
    public static UnixClientTransport create(Path path) {
        return new UnixClientTransport(path);
    }

    /** The socket file's path, as given. */
    public Path path() {
        return path;
    }

    /** The largest frame accepted, in bytes (default and maximum: 16,777,215). */
    public UnixClientTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /** How long a connection attempt may take (default 10 s). */
    public UnixClientTransport connectTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connectTimeout must be > 0 and fit an int of ms, got " + timeout);
        }
        this.connectTimeout = timeout;
        return this;
    }

    /** Whether the socket runs on native epoll rather than NIO; the process decides, as for TCP. */
    public boolean epoll() {
        return workers == null ? EventLoops.EPOLL : epollLoops;
    }

    /** Runs on the given event loops instead of the shared ones; for tests of the other I/O kind. */
    UnixClientTransport eventLoops(EventLoopGroup workers, boolean epoll) {
        this.workers = workers;
        this.epollLoops = epoll;
        return this;
    }

    /**
     * Connects. Fails with a {@link ConnectException} {@code cannot connect to unix:PATH: why}, the reason in
     * words: {@code no such file or directory} (no server made the file), {@code connection refused} (a stale
     * file), {@code permission denied} (the file's permissions), {@code accept backlog full}.
     */
    @Override
    public Mono<DuplexConnection> connect() {
        return Mono.create(sink -> {
            boolean epoll = epoll();
            FrameDecoder decoder = new FrameDecoder(maxFrameLength);
            Bootstrap b = new Bootstrap()
                .group(workers == null ? EventLoops.workers() : workers)
                .channel(UnixDomainSockets.clientChannel(epoll))
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(decoder);
            ChannelFuture f = b.connect(UnixDomainSockets.address(path, epoll));
            sink.onCancel(() -> f.cancel(false));
            f.addListener(done -> {
                if (done.isSuccess()) {
                    sink.success(new NettyDuplexConnection(f.channel(), decoder));
                } else {
                    ConnectException e = new ConnectException("cannot connect to unix:" + path + ": "
                        + (done.cause() == null ? "cancelled"
                        : UnixDomainSockets.connectFailure(done.cause(), connectTimeout.toMillis())));
                    e.initCause(done.cause());
                    sink.error(e);
                }
            });
        });
    }
}
