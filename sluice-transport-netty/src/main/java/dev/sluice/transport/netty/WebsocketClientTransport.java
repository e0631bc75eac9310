package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.transport.netty.internal.ConnectFailures;
import dev.sluice.transport.netty.internal.EventLoops;
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
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * A WebSocket client transport: connects over HTTP/1.1, upgrades to WebSocket (RFC 6455) on a path (default
 * {@value WebsocketServerTransport#DEFAULT_PATH}) and sends one RSocket frame per binary message, masked as a client
 * must, without the TCP length prefix. It talks to {@link WebsocketServerTransport} and to rsocket-java's
 * WebSocket server (whose default path is {@code /}). Only {@code ws://}: {@code wss://} (TLS) is not supported
 * yet.
 *
 * <p>A refused upgrade fails the connect with the server's status and the first line of its answer, for example
 * {@code cannot connect to ws://host:7000/x: WebSocket upgrade refused: 404 Not Found: no WebSocket endpoint at
 * /x; RSocket is served at /rsocket}.
 */
public final class WebsocketClientTransport implements ClientTransport {

    private static final int MAX_RESPONSE_BODY = 8 * 1024;

    private final String host;
    private final int port;
    private String path = WebsocketServerTransport.DEFAULT_PATH;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Duration connectTimeout = Duration.ofSeconds(10);
    /** Put first in the channel's pipeline, before HTTP: where TLS (an SslHandler) goes. */
    private Consumer<ChannelPipeline> pipelineHead = p -> { };

    private WebsocketClientTransport(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** Connects to {@code ws://host:port/rsocket} (see {@link #path}). */
    public static WebsocketClientTransport create(String host, int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port must be 0 to 65535, got " + port);
        }
        return new WebsocketClientTransport(host, port);
    }

    public static WebsocketClientTransport create(InetSocketAddress address) {
        return create(address.getHostString(), address.getPort());
    }

    /**
     * Connects to a {@code ws://host[:port][/path]} address; the port defaults to 80 and an empty path to
     * {@code /}. A query is dropped.
     */
    public static WebsocketClientTransport create(URI uri) {
        if (!"ws".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("expected a ws://host[:port][/path] address, got '" + uri + "'"
                + ("wss".equalsIgnoreCase(uri.getScheme()) ? " (wss, WebSocket over TLS, is not supported yet)"
                : ""));
        }
        String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return create(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort()).path(p);
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

    /** The address connected to, as {@code ws://host:port/path}. */
    public URI uri() {
        try {
            return new URI("ws", null, host, port, path, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid WebSocket address: host=" + host + ", port=" + port
                + ", path=" + path, e);
        }
    }

    /** Adds what {@code head} puts first in the channel's pipeline, before HTTP: the seam for TLS. */
    WebsocketClientTransport pipelineHead(Consumer<ChannelPipeline> head) {
        this.pipelineHead = head;
        return this;
    }

    @Override
    public Mono<DuplexConnection> connect() {
        URI uri = uri();
        int maxFrame = maxFrameLength;
        long timeoutMillis = connectTimeout.toMillis();
        Consumer<ChannelPipeline> head = pipelineHead;
        return Mono.create(sink -> {
            WebSocketClientHandshaker handshaker = WebSocketClientHandshakerFactory.newHandshaker(uri,
                WebSocketVersion.V13, null, false, EmptyHttpHeaders.INSTANCE, maxFrame, true, false);
            WebsocketClientUpgrade.Outcome outcome = new WebsocketClientUpgrade.Outcome() {
                @Override
                public void upgraded(DuplexConnection connection) {
                    sink.success(connection);
                }

                @Override
                public void failed(String reason, Throwable cause) {
                    sink.error(connectFailure(uri, reason, cause));
                }
            };
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
                        head.accept(p);
                        p.addLast(new HttpClientCodec());
                        p.addLast(new HttpObjectAggregator(MAX_RESPONSE_BODY));
                        p.addLast(new WebsocketClientUpgrade(handshaker, maxFrame,
                            TimeUnit.MILLISECONDS.toNanos(timeoutMillis), outcome));
                    }
                });
            ChannelFuture f = b.connect(new InetSocketAddress(host, port));
            sink.onCancel(() -> {
                f.cancel(false);
                f.channel().close();
            });
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    sink.error(connectFailure(uri, done.cause() == null ? "cancelled"
                        : ConnectFailures.reason(done.cause(), timeoutMillis), done.cause()));
                }
            });
        });
    }

    /** One line a user can act on; the cause keeps the rest. */
    private static ConnectException connectFailure(URI uri, String reason, Throwable cause) {
        ConnectException e = new ConnectException("cannot connect to " + uri + ": " + reason);
        e.initCause(cause);
        return e;
    }
}
