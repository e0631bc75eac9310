package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.ServerHandle;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.FrameDecoder;
import dev.sluice.transport.netty.internal.NettyDuplexConnection;
import dev.sluice.transport.netty.internal.PlaintextRefusal;
import dev.sluice.transport.netty.internal.ReloadingServerContext;
import dev.sluice.transport.netty.internal.ServerChannelHandle;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.NetUtil;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A TCP server transport: length-prefixed RSocket frames over a Netty channel, epoll when available, optionally
 * behind TLS ({@link #secure}).
 *
 * <p>The accept backlog defaults to what Netty reads from the kernel ({@code net.core.somaxconn}); a larger
 * value can be set, and the server warns at start when the kernel would silently clamp it.
 *
 * <p>With TLS, a connection reaches the RSocket engine only once its handshake has succeeded. A client that fails
 * the handshake, or speaks plaintext (it is answered ERROR[REJECTED_SETUP] {@code this server requires TLS} in the
 * clear), is closed and logged at DEBUG with the reason: {@code TLS connection from /10.0.0.7:51234 refused: peer did
 * not send a client certificate}.
 */
public final class TcpServerTransport implements ServerTransport {

    private static final Logger log = LoggerFactory.getLogger(TcpServerTransport.class);

    private final InetSocketAddress address;
    private int backlog = NetUtil.SOMAXCONN;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private ServerTls tls;
    private Consumer<String> tlsRefusals;

    private TcpServerTransport(InetSocketAddress address) {
        this.address = address;
    }

    /** Listens on {@code host:port}; port 0 picks a free one. */
    public static TcpServerTransport create(String host, int port) {
        return new TcpServerTransport(new InetSocketAddress(host, port));
    }

    public static TcpServerTransport create(InetSocketAddress address) {
        return new TcpServerTransport(address);
    }

    /** The accept backlog (SO_BACKLOG); default: the kernel's {@code net.core.somaxconn}. */
    public TcpServerTransport backlog(int backlog) {
        if (backlog <= 0) {
            throw new IllegalArgumentException("backlog must be > 0, got " + backlog);
        }
        this.backlog = backlog;
        return this;
    }

    /** The largest frame accepted, in bytes (default and maximum: 16,777,215, the protocol's own bound). */
    public TcpServerTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /**
     * Serves TLS as {@code tls} says, reading its files now.
     *
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     */
    public TcpServerTransport secure(TlsServer tls) {
        this.tls = new ServerTls(tls, log, PlaintextRefusal.REJECTED_SETUP);
        return this;
    }

    /** The TLS configuration, or null for plaintext. */
    public TlsServer tls() {
        return tls == null ? null : tls.config();
    }

    /** The reloading context, for tests that trigger a reload check; null for plaintext. */
    ReloadingServerContext tlsContext() {
        return tls == null ? null : tls.context();
    }

    /** For tests: also tells {@code listener} why each TLS connection was refused. */
    TcpServerTransport tlsRefusals(Consumer<String> listener) {
        this.tlsRefusals = listener;
        return this;
    }

    /** The backlog that will be requested. */
    public int backlog() {
        return backlog;
    }

    /**
     * Whether this transport's sockets run on native epoll rather than NIO. Decided once per process: epoll when
     * the platform's native library loads, unless {@code -Dsluice.transport.noEpoll=true}; every Sluice transport
     * of the process uses the same.
     */
    public boolean epoll() {
        return EventLoops.EPOLL;
    }

    /** The kernel's limit on accept backlogs, as Netty read it ({@code /proc/sys/net/core/somaxconn}). */
    public static int kernelSomaxconn() {
        return NetUtil.SOMAXCONN;
    }

    @Override
    public Mono<ServerHandle> start(Consumer<DuplexConnection> acceptor) {
        return Mono.create(sink -> {
            if (backlog > NetUtil.SOMAXCONN) {
                log.warn("accept backlog {} exceeds the kernel's net.core.somaxconn={}: the kernel silently clamps"
                    + " it to {}; raise it with 'sysctl -w net.core.somaxconn={}'", backlog, NetUtil.SOMAXCONN,
                    NetUtil.SOMAXCONN, backlog);
            }
            ServerTls secure = tls;
            Consumer<String> refusals = tlsRefusals;
            ServerBootstrap b = new ServerBootstrap()
                .group(EventLoops.boss(), EventLoops.workers())
                .channel(EventLoops.serverChannel())
                .option(ChannelOption.SO_BACKLOG, backlog)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameDecoder decoder = new FrameDecoder(maxFrameLength);
                        if (secure != null) {
                            // The engine hears of the connection only once its handshake has succeeded.
                            secure.initChannel(ch, refusals,
                                () -> acceptor.accept(new NettyDuplexConnection(ch, decoder)), decoder);
                            return;
                        }
                        ch.pipeline().addLast(decoder);
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelActive(ChannelHandlerContext ctx) throws Exception {
                                acceptor.accept(new NettyDuplexConnection(ctx.channel(), decoder));
                                super.channelActive(ctx);
                            }
                        });
                    }
                });
            ChannelFuture f = b.bind(address);
            f.addListener(done -> {
                if (done.isSuccess()) {
                    if (secure != null) {
                        secure.watchWhileOpen(f.channel());
                    }
                    sink.success(new ServerChannelHandle(f.channel()));
                } else {
                    Throwable cause = done.cause();
                    String why = cause instanceof BindException || String.valueOf(cause.getMessage())
                        .contains("Address already in use") ? "address already in use" : String.valueOf(cause);
                    sink.error(new IllegalStateException("cannot listen on " + hostPort(address) + ": " + why,
                        cause));
                }
            });
        });
    }

    static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }
}
