package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.ServerHandle;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.PlaintextRefusal;
import dev.sluice.transport.netty.internal.ReloadingServerContext;
import dev.sluice.transport.netty.internal.ServerChannelHandle;
import dev.sluice.transport.netty.internal.StaticPage;
import dev.sluice.transport.netty.internal.WebsocketServerUpgrade;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.NetUtil;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A WebSocket server transport: RSocket over WebSocket (RFC 6455) on HTTP/1.1, one RSocket frame per binary
 * message without the TCP length prefix, as the protocol's WebSocket mapping says. Serves one path, by default
 * {@value #DEFAULT_PATH}; rsocket-java's and rsocket-js's WebSocket clients connect to it given that path.
 *
 * <p>A request that is not an upgrade to that path gets an HTTP error (404 for another path, 400 for a request
 * missing the upgrade headers, 405 for a method other than GET, 426 for a WebSocket version other than 13, 408 when
 * no whole request arrives within the {@linkplain #handshakeTimeout handshake timeout}) and the connection is
 * closed. After the upgrade, a message longer than the max frame length closes the connection with status 1009
 * (message too big), a text message with 1003 (unsupported data); continuation frames are gathered, pings
 * answered. The options are read when {@link #start} is called.
 *
 * <p><b>TLS ({@code wss://}).</b> {@link #secure} puts TLS under HTTP, with everything {@link TcpServerTransport}'s
 * TLS has (certificate reload, mutual TLS, the same one-line reasons): the handshake comes first, and the upgrade
 * request is read, within its own timeout, only once it has succeeded. A plaintext client is answered {@code 400 Bad
 * Request} with the body {@code this server requires TLS: connect with wss://}. Refused connections are logged at
 * DEBUG on this class's logger.
 *
 * <p><b>Pages.</b> {@link #page} serves fixed content on other paths, to a plain GET, beside the WebSocket endpoint:
 * for a page whose script then connects back to it (a browser client on the same origin).
 */
public final class WebsocketServerTransport implements ServerTransport {

    /** The path served unless {@link #path} says otherwise. */
    public static final String DEFAULT_PATH = "/rsocket";

    private static final Logger log = LoggerFactory.getLogger(WebsocketServerTransport.class);
    private static final int MAX_REQUEST_BODY = 8 * 1024;

    private final InetSocketAddress address;
    private String path = DEFAULT_PATH;
    private int backlog = NetUtil.SOMAXCONN;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration handshakeTimeout = Duration.ofSeconds(10);
    private final Map<String, StaticPage> pages = new LinkedHashMap<>();
    private ServerTls tls;
    private Consumer<String> tlsRefusals;

    private WebsocketServerTransport(InetSocketAddress address) {
        this.address = address;
    }

    /** Listens on {@code host:port}; port 0 picks a free one. */
    public static WebsocketServerTransport create(String host, int port) {
        return new WebsocketServerTransport(new InetSocketAddress(host, port));
    }

    public static WebsocketServerTransport create(InetSocketAddress address) {
        return new WebsocketServerTransport(address);
    }

    /** The one path upgraded, such as {@code /rsocket} (the default); the query of a request is ignored. */
    public WebsocketServerTransport path(String path) {
        this.path = checkPath(path);
        return this;
    }

    /** The accept backlog (SO_BACKLOG); default: the kernel's {@code net.core.somaxconn}. */
    public WebsocketServerTransport backlog(int backlog) {
        if (backlog <= 0) {
            throw new IllegalArgumentException("backlog must be > 0, got " + backlog);
        }
        this.backlog = backlog;
        return this;
    }

    /**
     * The largest message accepted, in bytes, after continuation frames are gathered (default and maximum:
     * 16,777,215, the protocol's bound on a frame).
     */
    public WebsocketServerTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /**
     * How long a new connection may take to send its whole upgrade request (default 10 s); then it gets 408 and is
     * closed. The RSocket server's own time to first frame starts after the upgrade.
     */
    public WebsocketServerTransport handshakeTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout must be > 0, got " + timeout);
        }
        this.handshakeTimeout = timeout;
        return this;
    }

    /**
     * Serves {@code wss://} with TLS as {@code tls} says, reading its files now.
     *
     * @throws IllegalArgumentException naming the file, when a file cannot be read or used
     */
    public WebsocketServerTransport secure(TlsServer tls) {
        this.tls = new ServerTls(tls, log, PlaintextRefusal.HTTP_400);
        return this;
    }

    /** The TLS configuration, or null for plaintext ({@code ws://}). */
    public TlsServer tls() {
        return tls == null ? null : tls.config();
    }

    /**
     * Answers a GET (or HEAD) of {@code path} that is not a WebSocket upgrade with {@code 200 OK}, {@code body} and
     * the {@code Content-Type} {@code contentType}, then closes the connection; other methods on it get 405. Upgrades
     * are unaffected, on any path. A later call for the same path replaces the page. The array is not copied: do not
     * change it afterwards.
     *
     * @param path        such as {@code /}; the query of a request is ignored
     * @param contentType such as {@code text/html; charset=utf-8}
     */
    public WebsocketServerTransport page(String path, String contentType, byte[] body) {
        if (contentType == null || contentType.isBlank() || contentType.chars().anyMatch(c -> c < ' ' || c >= 0x7F)) {
            throw new IllegalArgumentException("contentType must be printable ASCII, got "
                + (contentType == null ? null : "'" + contentType + "'"));
        }
        if (body == null) {
            throw new IllegalArgumentException("body must not be null (an empty page is an empty array)");
        }
        pages.put(checkPath(path), new StaticPage(contentType, body));
        return this;
    }

    /** The path served. */
    public String path() {
        return path;
    }

    /** The reloading context, for tests that trigger a reload check; null for plaintext. */
    ReloadingServerContext tlsContext() {
        return tls == null ? null : tls.context();
    }

    /** For tests: also tells {@code listener} why each TLS connection was refused. */
    WebsocketServerTransport tlsRefusals(Consumer<String> listener) {
        this.tlsRefusals = listener;
        return this;
    }

    @Override
    public Mono<ServerHandle> start(Consumer<DuplexConnection> acceptor) {
        String servedPath = path;
        int maxFrame = maxFrameLength;
        long timeoutNanos = handshakeTimeout.toNanos();
        Map<String, StaticPage> served = Map.copyOf(pages);
        ServerTls secure = tls;
        Consumer<String> refusals = tlsRefusals;
        return Mono.create(sink -> {
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
                        // HTTP comes after the TLS handshake: the upgrade's timeout starts once it has succeeded.
                        Runnable http = () -> {
                            ChannelPipeline p = ch.pipeline();
                            p.addLast(new HttpServerCodec());
                            p.addLast(new HttpObjectAggregator(MAX_REQUEST_BODY));
                            p.addLast(new WebsocketServerUpgrade(servedPath, maxFrame, timeoutNanos, served,
                                acceptor));
                        };
                        if (secure != null) {
                            secure.initChannel(ch, refusals, http);
                        } else {
                            http.run();
                        }
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
                    sink.error(new IllegalStateException("cannot listen on "
                        + TcpServerTransport.hostPort(address) + ": " + why, cause));
                }
            });
        });
    }

    static String checkPath(String path) {
        if (path == null || !path.startsWith("/") || path.indexOf('?') >= 0 || path.indexOf('#') >= 0
            || path.chars().anyMatch(c -> c <= ' ' || c >= 0x7F)) {
            throw new IllegalArgumentException("path must start with '/' and hold no query, fragment, space or"
                + " non-ASCII character, got " + (path == null ? null : "'" + path + "'"));
        }
        return path;
    }
}
