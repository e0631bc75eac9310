package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.Transport;
import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.FencedFireAndForget;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import dev.sluice.bench.throughput.internal.Pacer;
import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.bench.throughput.internal.PeerTls;
import dev.sluice.bench.throughput.internal.RequestLoop;
import dev.sluice.bench.throughput.internal.WindowedCounter;
import io.netty.buffer.ByteBuf;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutor;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.core.RSocketConnector;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;
import reactor.core.publisher.Flux;

/**
 * The rsocket-java benchmark client: the same load as {@code SluiceClient} through rsocket-java's API, with
 * zero-copy decoding; streams keep a bounded window of demand (what {@code limitRate} would do, without its queue,
 * see {@link WindowedCounter}) — with unbounded demand its server runs out of heap at 140 B. TCP, or TLS with
 * {@code --transport tls} (reactor-netty's {@code secure()} with the context of {@link PeerTls}).
 */
public final class RSocketJavaClient {

    private RSocketJavaClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, RSocketJavaClient::start, RSocketJavaServer.TRANSPORTS);
    }

    /** The reactor-netty client {@code o} asks for: plaintext, or TLS with {@code --transport tls}. */
    static TcpClient tcp(ChildOptions o) throws SSLException {
        TcpClient tcp = TcpClient.create().host(o.host()).port(o.port());
        if (o.transport() == Transport.TLS) {
            SslContext tls = PeerTls.client(o).build();
            tcp = tcp.secure(spec -> spec.sslContext(tls));
        }
        return tcp;
    }

    private static void start(ChildOptions o, Meter meter, Latency latency, ClientReport report) throws Exception {
        // One event loop, ours, so a paced load can run its schedule on the connection's thread.
        LoopResources loops = LoopResources.create("rsocket-client", 1, true);
        RSocket c = RSocketConnector.create()
            .keepAlive(BenchMain.KEEP_ALIVE_INTERVAL, BenchMain.KEEP_ALIVE_MAX_LIFETIME)
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .connect(TcpClientTransport.create(tcp(o).runOn(loops)))
            .block(Duration.ofSeconds(30));
        c.onClose().subscribe(null, report::fail,
            () -> report.fail(new IllegalStateException("the connection closed")));
        ByteBuf template = Payloads.template(o.size());
        Supplier<Payload> request = () -> ByteBufPayload.create(template);
        switch (o.interaction()) {
            case STREAM -> c.requestStream(request.get())
                .subscribe(new WindowedCounter<>(Payload::release, meter, report, o.demand()));
            case CHANNEL -> c.requestChannel(Flux.<Payload>generate(sink -> sink.next(request.get())))
                .subscribe(new WindowedCounter<>(Payload::release, meter, report, o.demand()));
            case RESPONSE -> {
                RequestLoop<Payload> requests = new RequestLoop<>(() -> c.requestResponse(request.get()),
                    Payload::release, meter,
                    report, latency);
                EventExecutor loop = loops.onClient(LoopResources.DEFAULT_NATIVE).next();
                requests.stampAnswersPerTurn(loop);
                requests.startClosedLoop(o.window());
                if (o.paced()) {
                    new Pacer(o.rate(), o.maxInFlight(), System::nanoTime).start(requests, loop, report);
                }
            }
            case FNF -> new FencedFireAndForget<>(() -> c.fireAndForget(request.get()),
                () -> c.requestResponse(request.get()), o.demand(), meter, report).start();
            default -> throw BenchMain.unsupported("rsocket-java", o);
        }
    }
}
