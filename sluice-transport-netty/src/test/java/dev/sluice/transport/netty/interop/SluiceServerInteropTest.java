package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketConnector;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.exceptions.CustomRSocketException;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.TaggingMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.ClientTransport;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * rsocket-java 1.1.5's client against Sluice's server over loopback TCP: the mirror of
 * {@link SluiceClientInteropTest}, so that every interaction is exercised with Sluice as the responder, and the
 * server-initiated requests go from Sluice's server to rsocket-java's client.
 */
class SluiceServerInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FRAGMENTED_TIMEOUT = Duration.ofSeconds(60);

    private final SluiceResponder server = new SluiceResponder();
    private final JavaResponder clientResponder = new JavaResponder();
    private final CompletableFuture<Connection> serverToClient = new CompletableFuture<>();
    private CloseableServer sluice;
    private RSocket client;

    private void start(int mtu) {
        RSocketServer rs = RSocketServer.create((setup, sendingSocket) -> {
            serverToClient.complete(sendingSocket);
            return Mono.just(server);
        });
        if (mtu > 0) {
            rs.fragment(mtu);
        }
        sluice = rs.bind(sluiceServerTransport()).block(TIMEOUT);
        RSocketConnector connector = RSocketConnector.create()
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .acceptor(SocketAcceptor.with(clientResponder));
        if (mtu > 0) {
            connector.fragment(mtu);
        }
        client = connector.connect(javaClientTransport(sluice.port())).block(TIMEOUT);
    }

    /** Sluice's server transport: TCP here, WebSocket in {@link SluiceServerWebsocketInteropTest}. */
    ServerTransport sluiceServerTransport() {
        return TcpServerTransport.create("127.0.0.1", 0);
    }

    /** rsocket-java's client transport to {@code port}. */
    ClientTransport javaClientTransport(int port) {
        return TcpClientTransport.create("127.0.0.1", port);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
            client.onClose().block(TIMEOUT);
        }
        if (sluice != null) {
            sluice.dispose();
            sluice.onClose().block(TIMEOUT);
        }
    }

    @Test
    void requestResponseWithMetadata() {
        start(0);
        StepVerifier.create(client.requestResponse(ByteBufPayload.create("hello", "md-1")))
            .assertNext(p -> {
                assertThat(p.getDataUtf8()).isEqualTo("hello");
                assertThat(p.hasMetadata()).isTrue();
                assertThat(p.getMetadataUtf8()).isEqualTo("md-1");
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void requestResponseWithoutMetadata() {
        start(0);
        StepVerifier.create(client.requestResponse(ByteBufPayload.create("no metadata")))
            .assertNext(p -> {
                assertThat(p.getDataUtf8()).isEqualTo("no metadata");
                assertThat(p.hasMetadata()).isFalse();
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void requestResponseWithEmptyMetadataKeepsItPresent() {
        start(0);
        StepVerifier.create(client.requestResponse(ByteBufPayload.create(JavaResponder.dataOf("empty md"),
                Unpooled.EMPTY_BUFFER)))
            .assertNext(p -> {
                assertThat(p.getDataUtf8()).isEqualTo("empty md");
                assertThat(p.hasMetadata()).isTrue();
                assertThat(p.metadata().readableBytes()).isZero();
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void fireAndForgetReachesSluice() throws InterruptedException {
        start(0);
        StepVerifier.create(client.fireAndForget(ByteBufPayload.create("fnf-1", "md"))).verifyComplete();
        assertThat(server.fireAndForgets.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("fnf-1");
    }

    @Test
    void metadataPushReachesSluice() throws InterruptedException {
        start(0);
        StepVerifier.create(client.metadataPush(ByteBufPayload.create("", "pushed-metadata"))).verifyComplete();
        assertThat(server.metadataPushes.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo("pushed-metadata");
    }

    @Test
    void compositeRoutingMetadataIsReadByBothSides() {
        start(0);
        CompositeByteBuf md = ByteBufAllocator.DEFAULT.compositeBuffer();
        RoutingMetadata routing = TaggingMetadataCodec.createRoutingMetadata(ByteBufAllocator.DEFAULT,
            List.of("svc.echo", "v2"));
        CompositeMetadataCodec.encodeAndAddMetadata(md, ByteBufAllocator.DEFAULT,
            WellKnownMimeType.MESSAGE_RSOCKET_ROUTING, routing.getContent());
        CompositeMetadataCodec.encodeAndAddMetadata(md, ByteBufAllocator.DEFAULT, "application/x.sluice.trace",
            JavaResponder.dataOf("trace-id-7"));
        StepVerifier.create(client.requestResponse(ByteBufPayload.create(JavaResponder.dataOf("route"), md)))
            .assertNext(p -> {
                // Sluice read rsocket-java's routing entry (and skipped the custom-MIME entry) ...
                assertThat(p.getDataUtf8()).isEqualTo("svc.echo,v2");
                // ... and rsocket-java reads the composite metadata Sluice wrote.
                assertThat(JavaResponder.routes(p)).containsExactly("reply", "svc.echo", "v2");
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void applicationErrorCarriesSluiceMessage() {
        start(0);
        StepVerifier.create(client.requestResponse(ByteBufPayload.create("fail")))
            .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(ApplicationErrorException.class)
                .hasMessage("boom: sluice handler failed on purpose"))
            .verify(TIMEOUT);
    }

    @Test
    void customErrorCodeCrossesTheWire() {
        start(0);
        StepVerifier.create(client.requestResponse(ByteBufPayload.create("custom")))
            .expectErrorSatisfies(e -> {
                assertThat(e).isInstanceOf(CustomRSocketException.class).hasMessage("custom code from sluice");
                assertThat(((CustomRSocketException) e).errorCode()).isEqualTo(0x302);
            })
            .verify(TIMEOUT);
    }

    @Test
    void requestStreamDeliversExactlyTheRequestedTen() throws Exception {
        start(0);
        StepVerifier.create(client.requestStream(ByteBufPayload.create("s")).map(SluiceServerInteropTest::take), 0)
            .thenRequest(5)
            .expectNext("s0", "s1", "s2", "s3", "s4")
            .thenRequest(5)
            .expectNext("s5", "s6", "s7", "s8", "s9")
            // Sluice's handler was asked for exactly 10 and so could not have produced an 11th.
            .then(() -> assertThat(server.streamRequested.get()).isEqualTo(10))
            .thenCancel()
            .verify(TIMEOUT);
        server.streamCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.streamEmitted.get()).isEqualTo(10);
    }

    @Test
    void cancelMidStreamReachesSluice() throws Exception {
        start(0);
        StepVerifier.create(client.requestStream(ByteBufPayload.create("c")).map(SluiceServerInteropTest::take), 0)
            .thenRequest(3)
            .expectNext("c0", "c1", "c2")
            .thenCancel()
            .verify(TIMEOUT);
        server.streamCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.streamCancelled).isCompleted();
        assertThat(server.streamEmitted.get()).isEqualTo(3);
    }

    @Test
    void requestChannelEchoesBothWays() {
        start(0);
        List<String> got = client.requestChannel(Flux.range(0, 50).map(i -> ByteBufPayload.create("ch" + i)))
            .map(SluiceServerInteropTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(50).startsWith("ch0", "ch1").endsWith("ch49");
    }

    @Test
    void cancelMidChannelReachesSluice() throws Exception {
        start(0);
        Flux<Payload> endless = Flux.range(0, Integer.MAX_VALUE).map(i -> ByteBufPayload.create("e" + i));
        StepVerifier.create(client.requestChannel(endless).map(SluiceServerInteropTest::take), 0)
            .thenRequest(4)
            .expectNext("e0", "e1", "e2", "e3")
            .thenCancel()
            .verify(TIMEOUT);
        server.channelCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.channelCancelled).isCompleted();
    }

    @Test
    void sluiceServerCallsRSocketJavaClient() throws Exception {
        start(0);
        Connection toClient = serverToClient.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        dev.sluice.core.Payload reply = toClient.requestResponse(dev.sluice.core.Payload.create("ping", "smd"))
            .block(TIMEOUT);
        try {
            assertThat(reply.dataUtf8()).isEqualTo("ping");
            assertThat(reply.metadataUtf8()).isEqualTo("smd");
        } finally {
            reply.release();
        }
        List<String> streamed = toClient.requestStream(dev.sluice.core.Payload.create("srv"))
            .take(4)
            .map(p -> {
                String s = p.dataUtf8();
                p.release();
                return s;
            })
            .collectList().block(TIMEOUT);
        assertThat(streamed).containsExactly("srv0", "srv1", "srv2", "srv3");
        clientResponder.streamCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(clientResponder.streamEmitted.get()).isEqualTo(4);
    }

    @Test
    void fragmentationAtMtu64BothWays() {
        start(64);
        byte[] data = Patterns.bytes(1024 * 1024, 13);
        byte[] metadata = Patterns.bytes(3000, 17);
        Payload request = ByteBufPayload.create(Unpooled.wrappedBuffer(data), Unpooled.wrappedBuffer(metadata));
        // rsocket-java fragments the request at 64, Sluice reassembles, echoes it fragmented at 64, and
        // rsocket-java reassembles the echo.
        Payload reply = client.requestResponse(request).block(FRAGMENTED_TIMEOUT);
        try {
            assertThat(Arrays.mismatch(ByteBufUtil.getBytes(reply.data()), data)).isEqualTo(-1);
            assertThat(reply.hasMetadata()).isTrue();
            assertThat(Arrays.mismatch(ByteBufUtil.getBytes(reply.metadata()), metadata)).isEqualTo(-1);
        } finally {
            reply.release();
        }
    }

    private static String take(Payload p) {
        try {
            return p.getDataUtf8();
        } finally {
            p.release();
        }
    }
}
