package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.Transport;
import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.bench.throughput.internal.PeerTls;
import io.netty.buffer.ByteBuf;
import io.netty.handler.ssl.SslContext;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import javax.net.ssl.SSLException;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.tcp.TcpServer;

/**
 * The rsocket-java benchmark server (the version sluice-bench depends on, 1.1.x), doing what
 * {@code SluiceServer} does, in rsocket-java's fast configuration: zero-copy payload decoding
 * ({@link PayloadDecoder#ZERO_COPY}), payloads as {@link ByteBufPayload}s (pooled) over duplicates of one pooled
 * direct buffer, TCP on reactor-netty (epoll when available, its default); with {@code --transport tls}, TLS
 * through reactor-netty's {@code secure()} with the context of {@link PeerTls}.
 */
public final class RSocketJavaServer {

    /** What the rsocket-java mains run over. */
    public static final Set<Transport> TRANSPORTS =
        Collections.unmodifiableSet(EnumSet.of(Transport.TCP, Transport.TLS));

    private RSocketJavaServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, RSocketJavaServer::start, TRANSPORTS);
    }

    private static int start(ChildOptions options) throws Exception {
        RSocket handler = new Handler(Payloads.template(options.size()));
        CloseableChannel server = RSocketServer.create(SocketAcceptor.with(handler))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(TcpServerTransport.create(tcp(options)))
            .block(Duration.ofSeconds(30));
        return server.address().getPort();
    }

    /** The reactor-netty server {@code options} ask for: plaintext, or TLS with {@code --transport tls}. */
    static TcpServer tcp(ChildOptions options) throws SSLException {
        TcpServer tcp = TcpServer.create().host(options.host()).port(options.port());
        if (options.transport() == Transport.TLS) {
            SslContext tls = PeerTls.server(options).build();
            tcp = tcp.secure(spec -> spec.sslContext(tls));
        }
        return tcp;
    }

    private static final class Handler implements RSocket {
        private final ByteBuf template;

        Handler(ByteBuf template) {
            this.template = template;
        }

        private Payload answer() {
            return ByteBufPayload.create(template);
        }

        @Override
        public Mono<Void> fireAndForget(Payload payload) {
            payload.release();
            return Mono.empty();
        }

        @Override
        public Mono<Payload> requestResponse(Payload payload) {
            payload.release();
            return Mono.just(answer());
        }

        @Override
        public Flux<Payload> requestStream(Payload payload) {
            payload.release();
            return Flux.generate(sink -> sink.next(answer()));
        }

        @Override
        public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
            // Zero-copy: the received payloads are ours; rsocket-java releases what it sends.
            return Flux.from(payloads);
        }
    }
}
