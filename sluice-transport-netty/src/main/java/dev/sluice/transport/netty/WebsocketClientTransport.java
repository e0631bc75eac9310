package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.transport.netty.internal.ConnectFailures;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.TlsErrors;
import dev.sluice.transport.netty.internal.WebsocketClientUpgrade;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.ssl.SslHandler;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * A WebSocket client transport: connects over HTTP/1.1, upgrades to WebSocket (RFC 6455) on a path (default
 * {@value WebsocketServerTransport#DEFAULT_PATH}) and sends one RSocket frame per binary message, masked as a client
 * must, without the TCP length prefix. It talks to {@link WebsocketServerTransport} and to rsocket-java's
 * WebSocket server (whose default path is {@code /}).
 *
 * <p><b>TLS ({@code wss://}).</b> A {@code wss://} address, or {@link #secure}, connects over TLS with everything
 * {@link TcpClientTransport}'s TLS has (hostname verification, client certificates, the same one-line reasons): the
 * handshake comes first, and the upgrade request is sent only once it has succeeded. A {@code wss://} address trusts
 * the JDK's default CAs, as a browser trusts its own, until {@link #secure} says otherwise. A failed handshake fails
 * the connect: {@code cannot connect to wss://host:7000/rsocket: TLS handshake failed: hostname mismatch: certificate
 * is for other.example, not 127.0.0.1}.
 *
 * <p>A refused upgrade fails the connect with the server's status and the first line of its answer, for example
 * {@code cannot connect to ws://host:7000/x: WebSocket upgrade refused: 404 Not Found: no WebSocket endpoint at
 * /x; RSocket is served at /rsocket}.
 */
public final class WebsocketClientTransport implements ClientTransport {

    private static final int MAX_RESPONSE_BODY = 8 * 1024;

    private final String host;
    private final int port;
    /** Made from a {@code ws://} address: TLS would contradict it. */
    private final boolean plaintextScheme;
    private String path = WebsocketServerTransport.DEFAULT_PATH;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private ClientTls tls;

    private WebsocketClientTransport(String host, int port, boolean plaintextScheme) {
        this.host = host;
        this.port = port;
        this.plaintextScheme = plaintextScheme;
    }

    /** Connects to {@code ws://host:port/rsocket} (see {@link #path}), or {@code wss://} once {@link #secure}. */
    public static WebsocketClientTransport create(String host, int port) {
        return create(host, port, false);
    }

    private static WebsocketClientTransport create(String host, int port, boolean plaintextScheme) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port must be 0 to 65535, got " + port);
        }
        return new WebsocketClientTransport(host, port, plaintextScheme);
    }

    public static WebsocketClientTransport create(InetSocketAddress address) {
        return create(address.getHostString(), address.getPort());
    }

    /**
     * Connects to a {@code ws://host[:port][/path]} or {@code wss://host[:port][/path]} address; the port defaults
     * to 80 ({@code ws}) or 443 ({@code wss}) and an empty path to {@code /}. A query is dropped. A {@code wss}
     * address trusts the JDK's default CAs ({@link TlsClient#trustingJdkDefaults()}) unless {@link #secure} is
     * given another {@link TlsClient}.
     */
    public static WebsocketClientTransport create(URI uri) {
        boolean ws = "ws".equalsIgnoreCase(uri.getScheme());
        boolean wss = "wss".equalsIgnoreCase(uri.getScheme());
        if (!ws && !wss || uri.getHost() == null) {
            throw new IllegalArgumentException("expected a ws:// or wss://host[:port][/path] address, got '" + uri
                + "'");
        }
        String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        int defaultPort = ws ? 80 : 443;
        WebsocketClientTransport t = create(uri.getHost(), uri.getPort() < 0 ? defaultPort : uri.getPort(), ws)
            .path(p);
        return wss ? t.secure(TlsClient.trustingJdkDefaults()) : t;
    }

    /**
     * Connects over TLS ({@code wss://}) as {@code tls} says, reading its files now.
     *
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     * @throws IllegalStateException    when this transport was made from a {@code ws://} address
     */
    public WebsocketClientTransport secure(TlsClient tls) {
        if (plaintextScheme) {
            throw new IllegalStateException("secure(...) on a ws:// address (" + uri() + "): TLS is wss://, use a"
                + " wss:// address");
        }
        this.tls = new ClientTls(tls);
        return this;
    }

    /** The TLS configuration, or null for plaintext ({@code ws://}). */
    public TlsClient tls() {
        return tls == null ? null : tls.config();
    }

    /** The path to upgrade on (default {@value WebsocketServerTransport#DEFAULT_PATH}). */
    public WebsocketClientTransport path(String path) {
        this.path = WebsocketServerTransport.checkPath(path);
        return this;
    }

    /**
     * The largest message accepted, in bytes, after continuation frames are gathered (default and maximum:
     * 16,777,215).
     */
    public WebsocketClientTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /**
     * How long the TCP connect may take, and then again the WebSocket upgrade (default 10 s each). A server that
     * accepts the connection but never answers the upgrade fails the connect when it runs out.
     */
    public WebsocketClientTransport connectTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connectTimeout must be > 0 and fit an int of ms, got " + timeout);
        }
        this.connectTimeout = timeout;
        return this;
    }

    /** The address connected to, as {@code ws://host:port/path} or {@code wss://host:port/path}. */
    public URI uri() {
        try {
            return new URI(tls == null ? "ws" : "wss", null, host, port, path, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid WebSocket address: host=" + host + ", port=" + port
                + ", path=" + path, e);
        }
    }

    @Override
    public Mono<DuplexConnection> connect() {
        URI uri = uri();
        int maxFrame = maxFrameLength;
        long timeoutMillis = connectTimeout.toMillis();
        ClientTls secure = tls;
        return Mono.create(sink -> {
            WebSocketClientHandshaker handshaker = WebSocketClientHandshakerFactory.newHandshaker(uri,
                WebSocketVersion.V13, null, false, EmptyHttpHeaders.INSTANCE, maxFrame, true, false);
            // Whichever comes first, the outcome or a cancel, decides: a cancel closes the channel, an outcome after
            // a cancel (or a second failure report of the same channel) is dropped.
            AtomicBoolean decided = new AtomicBoolean();
            WebsocketClientUpgrade.Outcome outcome = new WebsocketClientUpgrade.Outcome() {
                @Override
                public void upgraded(DuplexConnection connection) {
                    if (decided.compareAndSet(false, true)) {
                        sink.success(connection);
                    } else {
                        connection.close();
                    }
                }

                @Override
                public void failed(String reason, Throwable cause) {
                    fail(sink, decided, connectFailure(uri, reason, cause));
                }
            };
            SslHandler[] tlsHandler = new SslHandler[1];
            Bootstrap b = new Bootstrap()
                .group(EventLoops.workers())
                .channel(EventLoops.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeoutMillis)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ChannelPipeline p = ch.pipeline();
                        if (secure != null) {
                            tlsHandler[0] = secure.newHandler(ch, host, port, timeoutMillis);
                            p.addLast(tlsHandler[0], new TlsErrors(secure.side()));
                        }
                        p.addLast(new HttpClientCodec());
                        p.addLast(new HttpObjectAggregator(MAX_RESPONSE_BODY));
                        // Sends the request when connected, or behind TLS once the handshake has succeeded.
                        p.addLast(new WebsocketClientUpgrade(handshaker, maxFrame,
                            TimeUnit.MILLISECONDS.toNanos(timeoutMillis), outcome));
                    }
                });
            ChannelFuture f = b.connect(new InetSocketAddress(host, port));
            sink.onCancel(() -> {
                f.cancel(false);
                if (decided.compareAndSet(false, true)) {
                    f.channel().close();
                }
            });
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    fail(sink, decided, connectFailure(uri, done.cause() == null ? "cancelled"
                        : ConnectFailures.reason(done.cause(), timeoutMillis), done.cause()));
                } else if (secure != null) {
                    secure.awaitHandshake(f.channel(), tlsHandler[0], timeoutMillis, (failed, cause) -> {
                        if (failed != null) {
                            f.channel().close();
                            fail(sink, decided, connectFailure(uri, failed, cause));
                        }
                    });
                }
            });
        });
    }

    private static void fail(MonoSink<DuplexConnection> sink, AtomicBoolean decided, ConnectException e) {
        if (decided.compareAndSet(false, true)) {
            sink.error(e);
        }
    }

    /** One line a user can act on; the cause keeps the rest. */
    private static ConnectException connectFailure(URI uri, String reason, Throwable cause) {
        ConnectException e = new ConnectException("cannot connect to " + uri + ": " + reason);
        e.initCause(cause);
        return e;
    }
}
