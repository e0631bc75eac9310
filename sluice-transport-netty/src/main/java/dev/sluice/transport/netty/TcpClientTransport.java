package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.transport.netty.internal.ConnectFailures;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.FrameDecoder;
import dev.sluice.transport.netty.internal.NettyDuplexConnection;
import dev.sluice.transport.netty.internal.TlsErrors;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslHandler;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * A TCP client transport: length-prefixed RSocket frames over a Netty channel, epoll when available, optionally
 * behind TLS ({@link #secure}).
 *
 * <p>A failed connection attempt fails {@link #connect()} with a {@link java.net.ConnectException} whose message is
 * one line: {@code cannot connect to HOST:PORT: connection refused}, or, with TLS, {@code cannot connect to
 * HOST:PORT: TLS handshake failed: certificate expired at 2024-01-01T00:00:00Z (CN=localhost)}; the cause holds the
 * details. With TLS 1.3 a server refuses a client certificate only after the client has finished its handshake, so
 * that refusal ends the connection just after it opened: the first request fails with {@code connection lost: TLS
 * handshake failed: the server requires a client certificate}.
 */
public final class TcpClientTransport implements ClientTransport {

    private final InetSocketAddress address;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private ClientTls tls;

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

    /**
     * Connects over TLS as {@code tls} says, reading its files now.
     *
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     */
    public TcpClientTransport secure(TlsClient tls) {
        this.tls = new ClientTls(tls);
        return this;
    }

    /** The TLS configuration, or null for plaintext. */
    public TlsClient tls() {
        return tls == null ? null : tls.config();
    }

    /**
     * How long a connection attempt may take (default 10 s); with TLS, the handshake that follows may take as long
     * again.
     */
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
            ClientTls secure = tls;
            long timeoutMillis = connectTimeout.toMillis();
            // Kept from the initializer: once the handshake has failed and the channel closed, the pipeline no longer
            // has it, and on a fast loopback that may happen before the connect listener below runs.
            AtomicReference<SslHandler> tlsHandler = new AtomicReference<>();
            Bootstrap b = new Bootstrap()
                .group(EventLoops.workers())
                .channel(EventLoops.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(secure == null ? decoder : new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        tlsHandler.set(secure.newHandler(ch, address.getHostString(), address.getPort(),
                            timeoutMillis));
                        ch.pipeline().addLast(tlsHandler.get(), new TlsErrors(secure.side()), decoder);
                    }
                });
            InetSocketAddress target = address.isUnresolved()
                ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
            ChannelFuture f = b.connect(target);
            // Whichever comes first, the outcome or a cancel, decides: a cancel closes the channel (one cancelled
            // mid-handshake would otherwise stay open, unseen), an outcome after a cancel is dropped.
            AtomicBoolean decided = new AtomicBoolean();
            sink.onCancel(() -> {
                f.cancel(false);
                if (decided.compareAndSet(false, true)) {
                    f.channel().close();
                }
            });
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    // One line a user can act on ("connection refused", "unknown host"); the cause keeps the rest.
                    fail(sink, decided, failure(done.cause() == null ? "cancelled"
                        : ConnectFailures.reason(done.cause(), timeoutMillis), done.cause()));
                } else if (secure == null) {
                    handOver(f.channel(), decoder, sink, decided);
                } else {
                    // Emits the connection once its handshake succeeded; auto-read stays off until the engine starts.
                    secure.awaitHandshake(f.channel(), tlsHandler.get(), timeoutMillis, (failed, cause) -> {
                        if (failed == null) {
                            handOver(f.channel(), decoder, sink, decided);
                        } else {
                            f.channel().close();
                            fail(sink, decided, failure(failed, cause));
                        }
                    });
                }
            });
        });
    }

    private static void handOver(Channel ch, FrameDecoder decoder, MonoSink<DuplexConnection> sink,
        AtomicBoolean decided) {
        if (decided.compareAndSet(false, true)) {
            sink.success(new NettyDuplexConnection(ch, decoder));
        }
    }

    private static void fail(MonoSink<DuplexConnection> sink, AtomicBoolean decided, ConnectException e) {
        if (decided.compareAndSet(false, true)) {
            sink.error(e);
        }
    }

    private ConnectException failure(String reason, Throwable cause) {
        ConnectException e = new ConnectException("cannot connect to " + TcpServerTransport.hostPort(address) + ": "
            + reason);
        e.initCause(cause);
        return e;
    }
}
