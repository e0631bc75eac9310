package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Sluice benchmark server, one JVM: answers every interaction with a pre-built payload of {@code --size}
 * bytes (request-response: one answer; request-stream: an infinite stream, emitted as demand arrives;
 * request-channel: echoes each element; fire-and-forget: drops it). Default configuration, TCP (epoll), or the
 * {@code --transport} asked for (see {@link SluiceTransports}).
 *
 * <pre>{@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.SluiceServer --port 7000}</pre>
 */
public final class SluiceServer {

    private SluiceServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, SluiceServer::start, SluiceTransports.ALL);
    }

    private static int start(ChildOptions options) {
        return start(options, RSocketServer.create());
    }

    /** Serves the benchmark's handler with {@code server}'s settings; returns the port. */
    static int start(ChildOptions options, RSocketServer server) {
        RSocket handler = new Handler(Payloads.template(options.size()));
        CloseableServer running = server.acceptor(SocketAcceptor.with(handler))
            .bind(SluiceTransports.server(options))
            .block(Duration.ofSeconds(30));
        return running.port();
    }

    /** Thread-safe: the template is only read, by index (see Payloads.template). */
    private static final class Handler implements RSocket {
        private final ByteBuf template;

        Handler(ByteBuf template) {
            this.template = template;
        }

        private Payload answer() {
            return Payload.create(template);
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
            // The received payloads are ours: handing them back is zero-copy, and Sluice releases them once sent.
            return Flux.from(payloads);
        }
    }
}
