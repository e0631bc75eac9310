package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.transport.netty.internal.EventLoops;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * Sluice over Unix domain sockets: every interaction on both kinds of I/O (the shared loops, epoll where it loads,
 * and NIO on the JDK's Unix sockets), the stale-file rule, the socket file's permissions and removal, and the
 * path-length limit.
 */
class UnixTransportTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Which event loops a server and its client run on. */
    enum Io { SHARED, NIO }

    private static EventLoopGroup nio;

    @TempDir
    Path dir;

    private final EchoHandler handler = new EchoHandler();
    private CloseableServer server;
    private Connection client;

    @BeforeAll
    static void startNio() {
        nio = new NioEventLoopGroup(2, new DefaultThreadFactory("uds-test-nio", true));
    }

    @AfterAll
    static void stopNio() {
        nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
            client.onClose().onErrorComplete().block(TIMEOUT);
        }
        if (server != null) {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }

    private static UnixServerTransport serverTransport(Path path, Io io) {
        UnixServerTransport t = UnixServerTransport.create(path);
        return io == Io.NIO ? t.eventLoops(nio, nio, false) : t;
    }

    private static UnixClientTransport clientTransport(Path path, Io io) {
        UnixClientTransport t = UnixClientTransport.create(path);
        return io == Io.NIO ? t.eventLoops(nio, false) : t;
    }

    private void startBoth(Path path, Io io) {
        server = RSocketServer.create(SocketAcceptor.with(handler)).bind(serverTransport(path, io)).block(TIMEOUT);
        client = RSocketConnector.create().connect(clientTransport(path, io)).block(TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void requestResponseEchoesDataAndMetadata(Io io) {
        startBoth(dir.resolve("rr.sock"), io);
        StepVerifier.create(client.requestResponse(Payload.create("hello", "md")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.metadataUtf8()).isEqualTo("md");
                p.release();
            })
            .expectComplete()
            .verify(TIMEOUT);
        StepVerifier.create(client.requestResponse(Payload.create("fail")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ApplicationErrorException.class)
                .hasMessage("you asked for it"))
            .verify(TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void requestStreamHonoursDemand(Io io) {
        startBoth(dir.resolve("stream.sock"), io);
        StepVerifier.create(client.requestStream(Payload.create("s")).map(UnixTransportTest::take), 0)
            .thenRequest(3)
            .expectNext("s0", "s1", "s2")
            .thenRequest(2)
            .expectNext("s3", "s4")
            .thenCancel()
            .verify(TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void requestChannelEchoes(Io io) {
        startBoth(dir.resolve("channel.sock"), io);
        List<String> got = client.requestChannel(Flux.range(0, 100).map(i -> Payload.create("c" + i)))
            .map(UnixTransportTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(100).startsWith("c0", "c1").endsWith("c99");
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void fireAndForgetAndMetadataPushArrive(Io io) {
        startBoth(dir.resolve("fnf.sock"), io);
        StepVerifier.create(client.fireAndForget(Payload.create("f"))).verifyComplete();
        StepVerifier.create(client.metadataPush(Payload.create("", "m"))).verifyComplete();
        // Frames keep their order on the socket, so once this answer is back both have been handled.
        StepVerifier.create(client.requestResponse(Payload.create("after")).map(UnixTransportTest::take))
            .expectNext("after").verifyComplete();
        assertThat(handler.fireAndForgets.get()).isEqualTo(1);
        assertThat(handler.metadataPushes.get()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void socketFileIsRemovedWhenTheServerCloses(Io io) {
        Path path = dir.resolve("gone.sock");
        server = RSocketServer.create(SocketAcceptor.with(handler)).bind(serverTransport(path, io)).block(TIMEOUT);
        assertThat(path).exists();
        assertThat(server.address()).isEqualTo(UnixDomainSocketAddress.of(path));
        assertThat(server.port()).isEqualTo(-1);
        server.dispose();
        server.onClose().block(TIMEOUT);
        server = null;
        assertThat(path).doesNotExist();
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void permissionsAreAppliedAfterBind(Io io) throws IOException {
        Path path = dir.resolve("perm.sock");
        UnixServerTransport t = serverTransport(path, io).permissions("rw-rw----");
        assertThat(t.permissions()).isEqualTo("rw-rw----");
        server = RSocketServer.create(SocketAcceptor.with(handler)).bind(t).block(TIMEOUT);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-rw----");
        // The owner may still connect.
        client = RSocketConnector.create().connect(clientTransport(path, io)).block(TIMEOUT);
        StepVerifier.create(client.requestResponse(Payload.create("p")).map(UnixTransportTest::take))
            .expectNext("p").verifyComplete();
    }

    @Test
    void malformedPermissionsAreRefusedWhenSet() {
        UnixServerTransport t = UnixServerTransport.create(dir.resolve("x.sock"));
        assertThatThrownBy(() -> t.permissions("rw-rw-"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("permissions must be 9 characters such as rw-rw----, got 'rw-rw-'");
        assertThatThrownBy(() -> t.permissions("0660"))
            .hasMessage("permissions must be 9 characters such as rw-rw----, got '0660'");
        assertThat(t.permissions()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void staleSocketFileIsDeletedAndBound(Io io) throws IOException {
        Path path = dir.resolve("stale.sock");
        // What a dead server leaves: the JDK does not delete the file when its listening channel closes.
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(path));
        }
        assertThat(path).exists();
        startBoth(path, io);
        StepVerifier.create(client.requestResponse(Payload.create("fresh")).map(UnixTransportTest::take))
            .expectNext("fresh").verifyComplete();
    }

    @Test
    void liveServerIsNeitherDisturbedNorReplaced() {
        Path path = dir.resolve("live.sock");
        startBoth(path, Io.SHARED);
        StepVerifier.create(RSocketServer.create(SocketAcceptor.with(handler))
                .bind(UnixServerTransport.create(path)))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot listen on unix:" + path + ": address in use: another server listens on "
                    + path))
            .verify(TIMEOUT);
        assertThat(path).exists();
        // The first server still serves, old and new clients alike.
        StepVerifier.create(client.requestResponse(Payload.create("still")).map(UnixTransportTest::take))
            .expectNext("still").verifyComplete();
        Connection second = RSocketConnector.create().connect(UnixClientTransport.create(path)).block(TIMEOUT);
        try {
            StepVerifier.create(second.requestResponse(Payload.create("new")).map(UnixTransportTest::take))
                .expectNext("new").verifyComplete();
        } finally {
            second.dispose();
        }
    }

    @Test
    void regularFileIsNeitherBoundNorDeleted() throws IOException {
        Path path = dir.resolve("data.sock");
        Files.writeString(path, "precious");
        StepVerifier.create(RSocketServer.create(SocketAcceptor.with(handler))
                .bind(UnixServerTransport.create(path)))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot listen on unix:" + path + ": " + path
                    + " exists and is not a socket (a regular file); not deleting it"))
            .verify(TIMEOUT);
        assertThat(Files.readString(path)).isEqualTo("precious");
    }

    @Test
    void directoryAndSymbolicLinkAreNeitherBoundNorDeleted() throws IOException {
        Path directory = Files.createDirectory(dir.resolve("d.sock"));
        StepVerifier.create(RSocketServer.create(SocketAcceptor.with(handler))
                .bind(UnixServerTransport.create(directory)))
            .expectErrorMessage("cannot listen on unix:" + directory + ": " + directory
                + " exists and is not a socket (a directory); not deleting it")
            .verify(TIMEOUT);
        assertThat(directory).isDirectory();

        // A link to a stale socket: deleting would remove the link, not what it points to; leave both.
        Path stale = dir.resolve("target.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(stale));
        }
        Path link = Files.createSymbolicLink(dir.resolve("link.sock"), stale);
        StepVerifier.create(RSocketServer.create(SocketAcceptor.with(handler))
                .bind(UnixServerTransport.create(link)))
            .expectErrorMessage("cannot listen on unix:" + link + ": " + link
                + " exists and is not a socket (a symbolic link); not deleting it")
            .verify(TIMEOUT);
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(stale).exists();
    }

    @Test
    void missingDirectoryIsNamed() {
        Path path = dir.resolve("no-such-dir").resolve("s.sock");
        StepVerifier.create(RSocketServer.create(SocketAcceptor.with(handler))
                .bind(UnixServerTransport.create(path)))
            .expectErrorMessage("cannot listen on unix:" + path + ": no such directory: " + path.getParent())
            .verify(TIMEOUT);
    }

    @Test
    void pathOfTheKernelsLimitBindsAndOneByteMoreIsRefused() {
        int limit = UnixServerTransport.MAX_PATH_BYTES;
        String prefix = dir.toString() + "/";
        Path longest = Path.of(prefix + "x".repeat(limit - prefix.length()));
        assertThat(longest.toString().getBytes(StandardCharsets.UTF_8)).hasSize(limit);
        startBoth(longest, Io.SHARED);
        StepVerifier.create(client.requestResponse(Payload.create("long")).map(UnixTransportTest::take))
            .expectNext("long").verifyComplete();

        Path tooLong = Path.of(prefix + "x".repeat(limit + 1 - prefix.length()));
        assertThatThrownBy(() -> UnixServerTransport.create(tooLong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unix socket path too long: " + (limit + 1) + " bytes, the limit is " + limit
                + " (sun_path holds " + (limit + 1) + " with the terminating NUL): " + tooLong);
        assertThatThrownBy(() -> UnixClientTransport.create(tooLong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("unix socket path too long: " + (limit + 1) + " bytes");
    }

    @Test
    void pathLengthCountsUtf8Bytes() {
        // 60 two-byte characters: 60 chars but 120 bytes.
        Path path = Path.of("/tmp/" + "é".repeat(60));
        assertThatThrownBy(() -> UnixServerTransport.create(path))
            .hasMessageStartingWith("unix socket path too long: 125 bytes");
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void connectFailuresSayWhy(Io io) throws IOException {
        Path missing = dir.resolve("missing.sock");
        StepVerifier.create(clientTransport(missing, io).connect())
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectException.class)
                .hasMessage("cannot connect to unix:" + missing + ": no such file or directory"))
            .verify(TIMEOUT);
        Path stale = dir.resolve("stale.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(stale));
        }
        StepVerifier.create(clientTransport(stale, io).connect())
            .expectErrorMessage("cannot connect to unix:" + stale + ": connection refused")
            .verify(TIMEOUT);
    }

    @Test
    void epollFollowsTheProcess() {
        assertThat(UnixServerTransport.create(dir.resolve("a.sock")).epoll()).isEqualTo(EventLoops.EPOLL);
        assertThat(UnixClientTransport.create(dir.resolve("a.sock")).epoll()).isEqualTo(EventLoops.EPOLL);
        assertThat(UnixServerTransport.create(dir.resolve("a.sock")).eventLoops(nio, nio, false).epoll()).isFalse();
    }

    private static String take(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
