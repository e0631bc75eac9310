package dev.sluice.transport.netty;

import dev.sluice.core.Limits;
import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.ServerHandle;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.internal.EventLoops;
import dev.sluice.transport.netty.internal.FrameDecoder;
import dev.sluice.transport.netty.internal.NettyDuplexConnection;
import dev.sluice.transport.netty.internal.ServerChannelHandle;
import dev.sluice.transport.netty.internal.SocketFiles;
import dev.sluice.transport.netty.internal.UnixDomainSockets;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.NetUtil;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * A Unix domain socket server transport: the same length-prefixed RSocket frames as {@link TcpServerTransport},
 * over a socket file instead of a port. For clients on the same machine (a sidecar, a local agent) that should not
 * reach the server through the network stack, and whose access the file's permissions decide.
 *
 * <pre>{@code
 * RSocketServer.create(acceptor)
 *     .bind(UnixServerTransport.create(Path.of("/run/app/app.sock")).permissions("rw-rw----"))
 *     .block();
 * }</pre>
 *
 * <p><b>I/O.</b> Native epoll domain sockets when the process runs on epoll ({@link #epoll()}); otherwise Netty's NIO
 * domain sockets on the JDK's own support (JDK 16+, Linux, macOS, Windows 10+). Both are the same to the engine.
 *
 * <p><b>The path</b> is used as given; the kernel allows at most {@link #MAX_PATH_BYTES} bytes of it
 * ({@code sun_path}), which {@link #create} checks.
 *
 * <p><b>A socket file that is already there</b> (a server that died without closing leaves one) is handled at
 * {@link #start} by this rule: if the path is not a socket, the server refuses to start and leaves it alone; if a
 * connection to it is accepted, another server is alive there and this one refuses ({@code address in use: another
 * server listens on PATH}); if the connection is refused, the file is stale: it is deleted, logged at INFO, and the
 * server binds. The rule is for leftovers of dead servers; two servers started on one path at the same instant can
 * still race, and one of them then fails to bind.
 *
 * <p><b>Permissions</b> set with {@link #permissions} are applied right after the bind; until then the file has the
 * process umask's. A client that connects in between is served, so where that matters put the socket in a
 * directory only the intended users can enter. The file is deleted when the server closes.
 *
 * <p>Not thread-safe while being configured; {@link #start} may be called again for another server on the same
 * path once the first has closed.
 */
public final class UnixServerTransport implements ServerTransport {

    /** The longest path the kernel takes, in bytes: 107 on Linux, 103 on macOS and the BSDs. */
    public static final int MAX_PATH_BYTES = UnixDomainSockets.MAX_PATH_BYTES;

    private final Path path;
    private int backlog = NetUtil.SOMAXCONN;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private Set<PosixFilePermission> permissions;
    /** Test seam: the I/O to run on, null for the process's shared event loops. */
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private boolean epollLoops;

    private UnixServerTransport(Path path) {
        this.path = UnixDomainSockets.checkPath(path);
    }

    /**
     * Listens on the socket file {@code path}.
     *
     * @throws IllegalArgumentException if the path is empty or longer than {@link #MAX_PATH_BYTES} bytes in UTF-8:
     *                                  {@code unix socket path too long: 130 bytes, the limit is 107 (...): PATH}
     */
    public static UnixServerTransport create(Path path) {
        return new UnixServerTransport(path);
    }

    /** The socket file's path, as given. */
    public Path path() {
        return path;
    }

    /**
     * The socket file's permissions, in {@code ls -l} form ({@code "rw-rw----"}: owner and group may connect;
     * connecting needs write permission). Default: whatever the process umask leaves.
     *
     * @throws IllegalArgumentException if {@code permissions} is not nine {@code rwx-} characters
     */
    public UnixServerTransport permissions(String permissions) {
        if (permissions == null) {
            throw new IllegalArgumentException("permissions must be 9 characters such as rw-rw----, got null");
        }
        try {
            this.permissions = PosixFilePermissions.fromString(permissions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("permissions must be 9 characters such as rw-rw----, got '"
                + permissions + "'", e);
        }
        return this;
    }

    /** The permissions that will be applied, in {@code ls -l} form, or null when the umask decides. */
    public String permissions() {
        return permissions == null ? null : PosixFilePermissions.toString(permissions);
    }

    /** The accept backlog; default: the kernel's {@code net.core.somaxconn}. */
    public UnixServerTransport backlog(int backlog) {
        if (backlog <= 0) {
            throw new IllegalArgumentException("backlog must be > 0, got " + backlog);
        }
        this.backlog = backlog;
        return this;
    }

    /** The largest frame accepted, in bytes (default and maximum: 16,777,215, the protocol's own bound). */
    public UnixServerTransport maxFrameLength(int bytes) {
        if (bytes < 6 || bytes > Limits.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be between 6 and " + Limits.MAX_FRAME_LENGTH
                + ", got " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /** Whether the socket runs on native epoll rather than NIO; the process decides, as for TCP. */
    public boolean epoll() {
        return boss == null ? EventLoops.EPOLL : epollLoops;
    }

    /** Runs on the given event loops instead of the shared ones; for tests of the other I/O kind. */
    UnixServerTransport eventLoops(EventLoopGroup boss, EventLoopGroup workers, boolean epoll) {
        this.boss = boss;
        this.workers = workers;
        this.epollLoops = epoll;
        return this;
    }

    /**
     * Applies the stale-file rule, binds, then sets the permissions. The rule's file-system calls run on the
     * subscribing thread. Fails with an {@link IllegalStateException} {@code cannot listen on unix:PATH: why}.
     */
    @Override
    public Mono<ServerHandle> start(Consumer<DuplexConnection> acceptor) {
        return Mono.create(sink -> {
            try {
                SocketFiles.prepareBind(path);
            } catch (SocketFiles.Refused e) {
                sink.error(new IllegalStateException(failure(e.getMessage()), e.getCause()));
                return;
            }
            boolean epoll = epoll();
            ServerBootstrap b = new ServerBootstrap()
                .group(boss == null ? EventLoops.boss() : boss, boss == null ? EventLoops.workers() : workers)
                .channel(UnixDomainSockets.serverChannel(epoll))
                .option(ChannelOption.SO_BACKLOG, backlog)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        FrameDecoder decoder = new FrameDecoder(maxFrameLength);
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
            ChannelFuture f = b.bind(UnixDomainSockets.address(path, epoll));
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    sink.error(new IllegalStateException(failure(bindFailure(done.cause())), done.cause()));
                    return;
                }
                if (permissions != null) {
                    try {
                        SocketFiles.applyPermissions(path, permissions);
                    } catch (SocketFiles.Refused e) {
                        // Closing deletes the file: nothing is left listening with the wrong permissions.
                        f.channel().close();
                        sink.error(new IllegalStateException(failure(e.getMessage()), e.getCause()));
                        return;
                    }
                }
                sink.success(new ServerChannelHandle(f.channel(), UnixDomainSockets.toJdk(f.channel().localAddress())));
            });
        });
    }

    private String failure(String why) {
        return "cannot listen on unix:" + path + ": " + why;
    }

    private String bindFailure(Throwable cause) {
        if (UnixDomainSockets.unsupported(cause)) {
            return UnixDomainSockets.NO_UNIX_SOCKETS;
        }
        String m = String.valueOf(cause == null ? null : cause.getMessage());
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("address already in use")) {
            // The stale-file rule found the path free, then someone bound it first.
            return "address in use: " + path + " was bound by another server meanwhile";
        }
        if (lower.contains("no such file or directory")) {
            return "no such directory: " + (path.getParent() == null ? "." : path.getParent());
        }
        if (lower.contains("permission denied")) {
            return "permission denied";
        }
        return m.replaceFirst("^\\w+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ", "");
    }
}
