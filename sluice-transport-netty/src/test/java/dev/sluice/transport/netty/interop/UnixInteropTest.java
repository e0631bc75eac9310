package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Credentials;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.transport.netty.UnixClientTransport;
import dev.sluice.transport.netty.UnixServerTransport;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainSocketAddress;
import io.rsocket.metadata.AuthMetadataCodec;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.util.ByteBufPayload;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * rsocket-java 1.1.5 over a Unix domain socket (reactor-netty's TCP transports given a {@link DomainSocketAddress},
 * which needs epoll) against Sluice's Unix transports: the framing is TCP's, so the two meet on the socket file.
 */
class UnixInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @BeforeEach
    void needsEpoll() {
        assumeTrue(Epoll.isAvailable(), "reactor-netty runs domain sockets on epoll only");
    }

    @Test
    void javaClientWithBearerTokenToSluiceUnixServer() {
        Path path = dir.resolve("sluice.sock");
        CloseableServer server = RSocketServer.create((setup, socket) -> {
            String who = setup.principal().getName();
            return Mono.just(new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    String d = p.dataUtf8();
                    p.release();
                    return Mono.just(Payload.create(who + "/" + d));
                }
            });
        }).authenticate((credentials, setup) -> credentials instanceof Credentials.Bearer b
            && b.token().equals("uds-token") ? Mono.just(() -> "agent") : Mono.empty())
            .bind(UnixServerTransport.create(path).permissions("rw-------")).block(TIMEOUT);
        io.rsocket.RSocket client = null;
        try {
            CompositeByteBuf md = ByteBufAllocator.DEFAULT.compositeBuffer();
            CompositeMetadataCodec.encodeAndAddMetadata(md, ByteBufAllocator.DEFAULT,
                WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION,
                AuthMetadataCodec.encodeBearerMetadata(ByteBufAllocator.DEFAULT, "uds-token".toCharArray()));
            client = io.rsocket.core.RSocketConnector.create()
                .metadataMimeType(WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString())
                .setupPayload(ByteBufPayload.create(Unpooled.EMPTY_BUFFER, md))
                .connect(io.rsocket.transport.netty.client.TcpClientTransport.create(
                    TcpClient.create().remoteAddress(() -> new DomainSocketAddress(path.toString()))))
                .block(TIMEOUT);
            io.rsocket.Payload p = client.requestResponse(ByteBufPayload.create("hello")).block(TIMEOUT);
            try {
                assertThat(p.getDataUtf8()).isEqualTo("agent/hello");
            } finally {
                p.release();
            }
        } finally {
            if (client != null) {
                client.dispose();
            }
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
        assertThat(path).doesNotExist();
    }

    @Test
    void sluiceUnixClientToJavaServer() {
        Path path = dir.resolve("java.sock");
        CloseableChannel channel = io.rsocket.core.RSocketServer.create((setup, socket) ->
                Mono.just(new io.rsocket.RSocket() {
                    @Override
                    public Mono<io.rsocket.Payload> requestResponse(io.rsocket.Payload p) {
                        String d = p.getDataUtf8();
                        p.release();
                        return Mono.just(ByteBufPayload.create("java/" + d));
                    }
                }))
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create(
                TcpServer.create().bindAddress(() -> new DomainSocketAddress(path.toString()))))
            .block(TIMEOUT);
        Connection client = null;
        try {
            client = RSocketConnector.create().connect(UnixClientTransport.create(path)).block(TIMEOUT);
            Payload p = client.requestResponse(Payload.create("hi")).block(TIMEOUT);
            try {
                assertThat(p.dataUtf8()).isEqualTo("java/hi");
            } finally {
                p.release();
            }
        } finally {
            if (client != null) {
                client.dispose();
            }
            channel.dispose();
            channel.onClose().block(TIMEOUT);
        }
    }
}
