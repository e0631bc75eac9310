package dev.sluice.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.FileNotFoundException;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The two ways Netty 4.1 runs a Unix domain socket, picked by the I/O the event loops run on: native epoll
 * ({@link EpollServerDomainSocketChannel}, {@link DomainSocketAddress}) or NIO on the JDK's own support
 * ({@link NioServerDomainSocketChannel}, the JDK's {@link UnixDomainSocketAddress}, JDK 16+). A channel must match
 * its event loop, so the choice follows {@link EventLoops#EPOLL}. Stateless.
 */
public final class UnixDomainSockets {

    /**
     * The longest socket path the kernel takes, in bytes: {@code sun_path} holds 108 bytes on Linux and 104 on the
     * BSDs and macOS, the terminating NUL included.
     */
    public static final int MAX_PATH_BYTES = System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
        .contains("linux") ? 107 : 103;

    /** The reason given when the platform has no Unix domain sockets at all. */
    public static final String NO_UNIX_SOCKETS = "this platform has no Unix domain sockets";

    private UnixDomainSockets() {
    }

    /**
     * Checks that the kernel can bind or connect to {@code path} as given (a relative path is resolved by the
     * kernel against the working directory, so only its own bytes count).
     *
     * @throws IllegalArgumentException if the path is null, empty, contains NUL or is longer than
     *                                  {@link #MAX_PATH_BYTES} bytes in UTF-8
     */
    public static Path checkPath(Path path) {
        if (path == null) {
            throw new IllegalArgumentException("unix socket path is null");
        }
        String s = path.toString();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("unix socket path is empty");
        }
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("unix socket path contains a NUL character: " + s);
        }
        int bytes = s.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("unix socket path too long: " + bytes + " bytes, the limit is "
                + MAX_PATH_BYTES + " (sun_path holds " + (MAX_PATH_BYTES + 1) + " with the terminating NUL): " + s);
        }
        return path;
    }

    /** The listening channel class for event loops of the given kind. */
    public static Class<? extends ServerChannel> serverChannel(boolean epoll) {
        return epoll ? EpollServerDomainSocketChannel.class : NioServerDomainSocketChannel.class;
    }

    /** The connecting channel class for event loops of the given kind. */
    public static Class<? extends Channel> clientChannel(boolean epoll) {
        return epoll ? EpollDomainSocketChannel.class : NioDomainSocketChannel.class;
    }

    /** {@code path} as the address type the channels of the given kind take. */
    public static SocketAddress address(Path path, boolean epoll) {
        return epoll ? new DomainSocketAddress(path.toString()) : UnixDomainSocketAddress.of(path);
    }

    /**
     * Why a connection to a socket file failed, one short lower-case phrase: {@code no such file or directory} (no
     * server made the file), {@code connection refused} (nobody listens: a stale file), {@code permission denied}
     * (the file's or a directory's permissions), {@code accept backlog full}; else as
     * {@link ConnectFailures#reason}. Epoll reports a missing file as a {@link FileNotFoundException} without a
     * message and NIO appends the path to the errno text, hence this rather than the TCP wording alone.
     */
    public static String connectFailure(Throwable failure, long timeoutMillis) {
        if (unsupported(failure)) {
            return NO_UNIX_SOCKETS;
        }
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof FileNotFoundException || t instanceof NoSuchFileException) {
                return "no such file or directory";
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            for (String known : new String[] {"no such file or directory", "connection refused", "permission denied"}) {
                if (m.contains(known)) {
                    return known;
                }
            }
            if (m.contains("resource temporarily unavailable")) {
                return "accept backlog full";
            }
        }
        String r = ConnectFailures.reason(failure, timeoutMillis);
        return r.isEmpty() ? r : r.substring(0, 1).toLowerCase(Locale.ROOT) + r.substring(1);
    }

    /**
     * Whether {@code failure} (or a cause) says the platform has no Unix domain sockets: the JDK's NIO throws
     * {@link UnsupportedOperationException} when it cannot open one (Windows before 10, say), which Netty wraps.
     */
    public static boolean unsupported(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof UnsupportedOperationException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A channel's address as the JDK's {@link UnixDomainSocketAddress}, whichever I/O made it, so that users see
     * one type; any other address unchanged.
     */
    public static SocketAddress toJdk(SocketAddress address) {
        return address instanceof DomainSocketAddress d ? UnixDomainSocketAddress.of(d.path()) : address;
    }
}
