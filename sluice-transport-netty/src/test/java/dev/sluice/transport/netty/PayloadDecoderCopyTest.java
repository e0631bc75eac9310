package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.PayloadDecoder;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link PayloadDecoder#COPY} over loopback TCP: neither side ever releases what it receives, and the leak detector
 * (paranoid in tests, failing the test on a report) finds nothing, because every received payload is a heap copy
 * whose network buffer was released when it was made.
 */
class PayloadDecoderCopyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Enough requests that a forgotten network buffer per request would show in the leak detector. */
    private static final int REQUESTS = 200;

    private CloseableServer server;
    private Connection client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.dispose();
        }
        if (server != null) {
            server.dispose();
        }
    }

    /** A handler that keeps what it receives (no release) and answers with new payloads. */
    private static final class Keeper implements RSocket {
        final List<Payload> kept = new CopyOnWriteArrayList<>();

        @Override
        public Mono<Payload> requestResponse(Payload p) {
            kept.add(p);
            return Mono.just(Payload.create("re:" + p.dataUtf8(), p.metadataUtf8()));
        }

        @Override
        public Flux<Payload> requestStream(Payload p) {
            kept.add(p);
            return Flux.range(0, 3).map(i -> Payload.create(p.dataUtf8() + i));
        }

        @Override
        public Flux<Payload> requestChannel(Publisher<Payload> in) {
            return Flux.from(in).doOnNext(kept::add).map(p -> Payload.create(p.dataUtf8().toUpperCase()));
        }
    }

    @Test
    void receivedPayloadsNeedNoReleaseOnEitherSide() {
        Keeper handler = new Keeper();
        server = RSocketServer.create(SocketAcceptor.with(handler)).payloadDecoder(PayloadDecoder.COPY)
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        client = RSocketConnector.create().payloadDecoder(PayloadDecoder.COPY)
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);

        List<Payload> responses = Flux.range(0, REQUESTS)
            .concatMap(i -> client.requestResponse(Payload.create("r" + i, "m")))
            .collectList().block(TIMEOUT);
        assertThat(responses).hasSize(REQUESTS);
        assertThat(responses.get(7).dataUtf8()).isEqualTo("re:r7");
        assertThat(responses.get(7).metadataUtf8()).isEqualTo("m");

        List<String> stream = client.requestStream(Payload.create("s")).map(Payload::dataUtf8)
            .collectList().block(TIMEOUT);
        assertThat(stream).containsExactly("s0", "s1", "s2");

        List<String> channel = client.requestChannel(Flux.just("a", "b").map(Payload::create))
            .map(Payload::dataUtf8).collectList().block(TIMEOUT);
        assertThat(channel).containsExactly("A", "B");

        // The handler's kept requests are still readable: copies, not views of recycled network buffers.
        assertThat(handler.kept).hasSize(REQUESTS + 3);
        assertThat(handler.kept.get(REQUESTS - 1).dataUtf8()).isEqualTo("r" + (REQUESTS - 1));
        // Ported rsocket-java code releases what it reads; on a copy that is harmless, even twice.
        responses.get(0).release();
        responses.get(0).release();
        assertThat(responses.get(0).dataUtf8()).isEqualTo("re:r0");
    }

    @Test
    void theServersRequestsToACopyingClientAreCopiesToo() {
        List<Payload> seenByClient = new CopyOnWriteArrayList<>();
        // The server answers each request by asking the client in turn, and relays the client's answer.
        server = RSocketServer.create((setup, sendingSocket) -> Mono.just(new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    p.release();
                    return sendingSocket.requestResponse(Payload.create("from-server"));
                }
            }))
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        client = RSocketConnector.create().payloadDecoder(PayloadDecoder.COPY)
            .responder(c -> new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    seenByClient.add(p);
                    return Mono.just(Payload.create("client-answer"));
                }
            })
            .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);

        Payload answer = client.requestResponse(Payload.create("q")).block(TIMEOUT);
        assertThat(answer.dataUtf8()).isEqualTo("client-answer");
        assertThat(seenByClient).hasSize(1);
        assertThat(seenByClient.get(0).dataUtf8()).isEqualTo("from-server");
    }

    @Test
    void connectWithAndBindNowAreTheDefaultsZeroCopy() {
        server = RSocketServer.create(SocketAcceptor.forRequestResponse(p -> Mono.just(p)))
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
        client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
        Payload answer = client.requestResponse(Payload.create("echo")).block(TIMEOUT);
        assertThat(answer.dataUtf8()).isEqualTo("echo");
        // Zero-copy by default: a reference-counted view that must be released.
        assertThat(answer.release()).isTrue();
    }
}
