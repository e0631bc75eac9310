package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.CustomRSocketException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.transport.netty.TcpClientTransport;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rsocket.core.RSocketServer;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.ServerTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
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
 * Sluice's client against rsocket-java 1.1.5's server over loopback TCP: every interaction, metadata present,
 * empty and absent, composite routing metadata written by one side and read by the other, fragmentation at MTU 64
 * in both directions, application errors, cancellation, request-n, and requests the server sends to the client.
 */
class SluiceClientInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FRAGMENTED_TIMEOUT = Duration.ofSeconds(60);

    private final JavaResponder server = new JavaResponder();
    private final SluiceResponder clientResponder = new SluiceResponder();
    private final CompletableFuture<io.rsocket.RSocket> serverToClient = new CompletableFuture<>();
    private CloseableChannel channel;
    private Connection client;

    private void start(int mtu) {
        RSocketServer rs = RSocketServer.create((setup, sendingSocket) -> {
            serverToClient.complete(sendingSocket);
            return Mono.just(server);
        }).payloadDecoder(PayloadDecoder.ZERO_COPY);
        if (mtu > 0) {
            rs.fragment(mtu);
        }
        channel = rs.bind(javaServerTransport()).block(TIMEOUT);
        RSocketConnector connector = RSocketConnector.create().responder(c -> clientResponder);
        if (mtu > 0) {
            connector.fragment(mtu);
        }
        client = connector.connect(sluiceClientTransport(channel.address().getPort()))
            .block(TIMEOUT);
    }

    /** rsocket-java's server transport: TCP here, WebSocket in {@link SluiceClientWebsocketInteropTest}. */
    ServerTransport<CloseableChannel> javaServerTransport() {
        return TcpServerTransport.create("127.0.0.1", 0);
    }

    /** Sluice's client transport to {@code port}. */
    ClientTransport sluiceClientTransport(int port) {
        return TcpClientTransport.create("127.0.0.1", port);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
            client.onClose().block(TIMEOUT);
        }
        if (channel != null) {
            channel.dispose();
            channel.onClose().block(TIMEOUT);
        }
    }

    @Test
    void requestResponseWithMetadata() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("hello", "md-1")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("hello");
                assertThat(p.hasMetadata()).isTrue();
                assertThat(p.metadataUtf8()).isEqualTo("md-1");
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void requestResponseWithoutMetadata() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("no metadata")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("no metadata");
                assertThat(p.hasMetadata()).isFalse();
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void requestResponseWithEmptyMetadataKeepsItPresent() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("empty md", "")))
            .assertNext(p -> {
                assertThat(p.dataUtf8()).isEqualTo("empty md");
                assertThat(p.hasMetadata()).isTrue();
                assertThat(p.metadata().readableBytes()).isZero();
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void fireAndForgetReachesRSocketJava() throws InterruptedException {
        start(0);
        StepVerifier.create(client.fireAndForget(Payload.create("fnf-1", "md"))).verifyComplete();
        assertThat(server.fireAndForgets.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("fnf-1");
    }

    @Test
    void metadataPushReachesRSocketJava() throws InterruptedException {
        start(0);
        StepVerifier.create(client.metadataPush(Payload.create("", "pushed-metadata"))).verifyComplete();
        assertThat(server.metadataPushes.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo("pushed-metadata");
    }

    @Test
    void compositeRoutingMetadataIsReadByBothSides() {
        start(0);
        Payload request = Payload.create(JavaResponder.dataOf("route"),
            SluiceResponder.requestRouting(List.of("svc.echo", "v2")));
        StepVerifier.create(client.requestResponse(request))
            .assertNext(p -> {
                // rsocket-java read our routing entry (and skipped our custom-MIME entry) ...
                assertThat(p.dataUtf8()).isEqualTo("svc.echo,v2");
                // ... and we read the composite metadata rsocket-java wrote.
                assertThat(SluiceResponder.routes(p)).containsExactly("reply", "svc.echo", "v2");
                p.release();
            })
            .verifyComplete();
    }

    @Test
    void applicationErrorCarriesRSocketJavaMessage() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("fail")))
            .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(ApplicationErrorException.class)
                .hasMessage("boom: rsocket-java handler failed on purpose"))
            .verify(TIMEOUT);
    }

    @Test
    void customErrorCodeCrossesTheWire() {
        start(0);
        StepVerifier.create(client.requestResponse(Payload.create("custom")))
            .expectErrorSatisfies(e -> {
                assertThat(e).isInstanceOf(CustomRSocketException.class)
                    .hasMessage("custom code from rsocket-java");
                assertThat(((CustomRSocketException) e).errorCode()).isEqualTo(0x301);
            })
            .verify(TIMEOUT);
    }

    @Test
    void requestStreamDeliversExactlyTheRequestedTen() throws Exception {
        start(0);
        Flux<String> stream = client.requestStream(Payload.create("s")).map(SluiceClientInteropTest::take);
        StepVerifier.create(stream, 0)
            .thenRequest(5)
            .expectNext("s0", "s1", "s2", "s3", "s4")
            .thenRequest(5)
            .expectNext("s5", "s6", "s7", "s8", "s9")
            // rsocket-java's handler was asked for exactly 10 and so could not have produced an 11th.
            .then(() -> assertThat(server.streamRequested.get()).isEqualTo(10))
            .thenCancel()
            .verify(TIMEOUT);
        server.streamCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.streamEmitted.get()).isEqualTo(10);
    }

    @Test
    void cancelMidStreamReachesRSocketJava() throws Exception {
        start(0);
        StepVerifier.create(client.requestStream(Payload.create("c")).map(SluiceClientInteropTest::take), 0)
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
        List<String> got = client.requestChannel(Flux.range(0, 50).map(i -> Payload.create("ch" + i)))
            .map(SluiceClientInteropTest::take)
            .collectList().block(TIMEOUT);
        assertThat(got).hasSize(50).startsWith("ch0", "ch1").endsWith("ch49");
    }

    @Test
    void cancelMidChannelReachesRSocketJava() throws Exception {
        start(0);
        Flux<Payload> endless = Flux.range(0, Integer.MAX_VALUE).map(i -> Payload.create("e" + i));
        StepVerifier.create(client.requestChannel(endless).map(SluiceClientInteropTest::take), 0)
            .thenRequest(4)
            .expectNext("e0", "e1", "e2", "e3")
            .thenCancel()
            .verify(TIMEOUT);
        server.channelCancelled.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.channelCancelled).isCompleted();
    }

    @Test
    void rsocketJavaServerCallsSluiceClient() throws Exception {
        start(0);
        io.rsocket.RSocket toClient = serverToClient.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        io.rsocket.Payload reply = toClient.requestResponse(ByteBufPayload.create("ping from server", "smd"))
            .block(TIMEOUT);
        try {
            assertThat(reply.getDataUtf8()).isEqualTo("ping from server");
            assertThat(reply.getMetadataUtf8()).isEqualTo("smd");
        } finally {
            reply.release();
        }
        List<String> streamed = toClient.requestStream(ByteBufPayload.create("srv"))
            .take(4)
            .map(p -> {
                String s = p.getDataUtf8();
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
        byte[] data = Patterns.bytes(1024 * 1024, 7);
        byte[] metadata = Patterns.bytes(3000, 11);
        Payload request = Payload.create(Unpooled.wrappedBuffer(data), Unpooled.wrappedBuffer(metadata));
        // We fragment the request into ~55-byte frames, rsocket-java reassembles, echoes it fragmented at 64,
        // and we reassemble the echo. ~20,000 frames each way, slow under paranoid leak tracking: a longer bound.
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
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }
}
