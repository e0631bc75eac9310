package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * Each direction of a request-channel completes on its own (the protocol's half-close): a responder that answers
 * with an empty stream at once must still receive every payload the requester sends afterwards. The requester
 * is Sluice against Sluice's responder and against rsocket-java 1.1.5's, and rsocket-java against Sluice's.
 */
class ChannelHalfCloseTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int COUNT = 1_000;

    /** What the responder's handler saw of the requester's payloads. */
    private final AtomicInteger received = new AtomicInteger();
    private final CompletableFuture<Void> inboundCompleted = new CompletableFuture<>();

    private CloseableServer sluiceServer;
    private CloseableChannel javaServer;
    private Connection sluiceClient;
    private io.rsocket.RSocket javaClient;

    @AfterEach
    void stop() {
        if (sluiceClient != null) {
            sluiceClient.dispose();
            sluiceClient.onClose().block(TIMEOUT);
        }
        if (javaClient != null) {
            javaClient.dispose();
            javaClient.onClose().block(TIMEOUT);
        }
        if (sluiceServer != null) {
            sluiceServer.dispose();
            sluiceServer.onClose().block(TIMEOUT);
        }
        if (javaServer != null) {
            javaServer.dispose();
            javaServer.onClose().block(TIMEOUT);
        }
    }

    @Test
    void sluiceRequesterKeepsSendingAfterSluiceResponderCompletes() throws Exception {
        startSluiceServer();
        sluiceClient = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sluiceServer.port())).block(TIMEOUT);

        sendFromSluice();
    }

    @Test
    void sluiceRequesterKeepsSendingAfterRSocketJavaResponderCompletes() throws Exception {
        javaServer = io.rsocket.core.RSocketServer.create(io.rsocket.SocketAcceptor.with(new io.rsocket.RSocket() {
                @Override
                public Flux<io.rsocket.Payload> requestChannel(Publisher<io.rsocket.Payload> payloads) {
                    Flux.from(payloads).subscribe(p -> {
                        received.incrementAndGet();
                        p.release();
                    }, inboundCompleted::completeExceptionally, () -> inboundCompleted.complete(null));
                    return Flux.empty();
                }
            }))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        sluiceClient = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", javaServer.address().getPort())).block(TIMEOUT);

        sendFromSluice();
    }

    @Test
    void rsocketJavaRequesterKeepsSendingAfterSluiceResponderCompletes() throws Exception {
        startSluiceServer();
        javaClient = io.rsocket.core.RSocketConnector.create()
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create("127.0.0.1", sluiceServer.port()))
            .block(TIMEOUT);

        Flux<io.rsocket.Payload> outbound = Flux.range(1, COUNT).delayElements(Duration.ofMillis(1))
            .map(i -> ByteBufPayload.create("p" + i));
        StepVerifier.create(javaClient.requestChannel(outbound)).expectComplete().verify(TIMEOUT);

        awaitInboundEnd();
        assertThat(received).hasValue(COUNT);
        assertThat(inboundCompleted).isCompleted();
    }

    private void startSluiceServer() {
        RSocket counting = new RSocket() {
            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                Flux.from(payloads).subscribe(p -> {
                    received.incrementAndGet();
                    p.release();
                }, inboundCompleted::completeExceptionally, () -> inboundCompleted.complete(null));
                return Flux.empty();
            }
        };
        sluiceServer = RSocketServer.create(SocketAcceptor.with(counting))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
    }

    /**
     * Sends {@value #COUNT} payloads one per millisecond on a channel whose responder completes its side at once:
     * the response stream completes empty, and the responder still receives all of them and then COMPLETE.
     */
    private void sendFromSluice() throws Exception {
        AtomicInteger emitted = new AtomicInteger();
        Flux<Payload> outbound = Flux.range(1, COUNT).delayElements(Duration.ofMillis(1))
            .doOnNext(i -> emitted.incrementAndGet())
            .map(i -> Payload.create("p" + i));

        StepVerifier.create(sluiceClient.requestChannel(outbound)).expectComplete().verify(TIMEOUT);

        awaitInboundEnd();
        assertThat(received).hasValue(COUNT);
        assertThat(emitted).hasValue(COUNT);
        assertThat(inboundCompleted).isCompleted();
    }

    /** Waits until the responder's inbound ends, or {@link #TIMEOUT}: a stalled source must fail on the count. */
    private void awaitInboundEnd() throws InterruptedException {
        try {
            inboundCompleted.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // The assertions that follow say what was lost.
        }
    }
}
