package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.ChannelException;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How socket-layer failures of both I/O kinds read, and the address forms users see. */
class UnixDomainSocketsTest {

    @Test
    void connectFailuresOfBothIoKindsReadTheSame() {
        // epoll reports ENOENT as a FileNotFoundException without a message; NIO appends the path to the errno text.
        assertThat(UnixDomainSockets.connectFailure(new ConnectException("x").initCause(
            new FileNotFoundException()), 10)).isEqualTo("no such file or directory");
        assertThat(UnixDomainSockets.connectFailure(new SocketException("No such file or directory: /run/a.sock"),
            10)).isEqualTo("no such file or directory");
        assertThat(UnixDomainSockets.connectFailure(new ConnectException("connect(..) failed: Connection refused"),
            10)).isEqualTo("connection refused");
        assertThat(UnixDomainSockets.connectFailure(new SocketException("Permission denied"), 10))
            .isEqualTo("permission denied");
        assertThat(UnixDomainSockets.connectFailure(new SocketException("Resource temporarily unavailable"), 10))
            .isEqualTo("accept backlog full");
        assertThat(UnixDomainSockets.connectFailure(new ConnectTimeoutException("connection timed out"), 250))
            .isEqualTo("timed out after 250 ms");
        assertThat(UnixDomainSockets.connectFailure(new ChannelException("Failed to open a socket.",
            new UnsupportedOperationException("Unix domain sockets not supported")), 10))
            .isEqualTo("this platform has no Unix domain sockets");
        assertThat(UnixDomainSockets.connectFailure(new SocketException("Something Else"), 10))
            .isEqualTo("something Else");
    }

    @Test
    void addressesAreTheJdksWhicheverIoMadeThem() {
        Path p = Path.of("/run/x.sock");
        assertThat(UnixDomainSockets.address(p, true)).isEqualTo(new DomainSocketAddress("/run/x.sock"));
        assertThat(UnixDomainSockets.address(p, false)).isEqualTo(UnixDomainSocketAddress.of(p));
        assertThat(UnixDomainSockets.toJdk(new DomainSocketAddress("/run/x.sock")))
            .isEqualTo(UnixDomainSocketAddress.of(p));
        InetSocketAddress inet = new InetSocketAddress("127.0.0.1", 1);
        assertThat(UnixDomainSockets.toJdk(inet)).isSameAs(inet);
    }

    @Test
    void emptyOrNulPathsAreRefused() {
        assertThatThrownBy(() -> UnixDomainSockets.checkPath(Path.of("")))
            .hasMessage("unix socket path is empty");
        assertThatThrownBy(() -> UnixDomainSockets.checkPath(null))
            .hasMessage("unix socket path is null");
    }
}
