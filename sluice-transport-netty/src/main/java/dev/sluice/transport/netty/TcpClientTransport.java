package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.transport.netty.internal.ConnectFailures;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.FrameDecoder;
import dev.sluice.transport.netty.internal.NettyDuplexConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.time.Duration;
import reactor.core.publisher.Mono;

/** A TCP client transport: length-prefixed RSocket frames over a Netty channel, epoll when available. */
public final class TcpClientTransport implements ClientTransport {

    private final InetSocketAddress address;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration connectTimeout = Duration.ofSeconds(10);

    private TcpClientTransport(InetSocketAddress address) {
        this.address = address;
    }

    public static TcpClientTransport create(String host, int port) {
        return new TcpClientTransport(InetSocketAddress.createUnresolved(host, port));
    }

    public static TcpClientTransport create(InetSocketAddress address) {
        return new TcpClientTransport(address);
    }

    /** The largest frame accepted, in bytes (default and maximum: 16,777,215). */
    public TcpClientTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /** How long a connection attempt may take (default 10 s). */
    public TcpClientTransport connectTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connectTimeout must be > 0 and fit an int of ms, got " + timeout);
        }
        this.connectTimeout = timeout;
        return this;
    }

    @Override
    public Mono<DuplexConnection> connect() {
        return Mono.create(sink -> {
            FrameDecoder decoder = new FrameDecoder(maxFrameLength);
            Bootstrap b = new Bootstrap()
                .group(EventLoops.workers())
                .channel(EventLoops.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(decoder);
            InetSocketAddress target = address.isUnresolved()
                ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
            ChannelFuture f = b.connect(target);
            sink.onCancel(() -> f.cancel(false));
            f.addListener(done -> {
                if (done.isSuccess()) {
                    sink.success(new NettyDuplexConnection(f.channel(), decoder));
                } else {
                    // One line a user can act on ("connection refused", "unknown host"); the cause keeps the rest.
                    java.net.ConnectException e = new java.net.ConnectException("cannot connect to "
                        + TcpServerTransport.hostPort(address) + ": " + (done.cause() == null ? "cancelled"
                        : ConnectFailures.reason(done.cause(), connectTimeout.toMillis())));
                    e.initCause(done.cause());
                    sink.error(e);
                }
            });
        });
    }
}
