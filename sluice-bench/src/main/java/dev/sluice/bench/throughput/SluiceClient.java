package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.FencedFireAndForget;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import dev.sluice.bench.throughput.internal.Pacer;
import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.bench.throughput.internal.RequestLoop;
import dev.sluice.bench.throughput.internal.WindowedCounter;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;

/**
 * The Sluice benchmark client, one JVM and one connection: runs {@code --interaction} against a benchmark server
 * (any of them: they speak RSocket alike) and prints one figure per second (see {@code ClientReport}). TCP, or the
 * {@code --transport} asked for (see {@link SluiceTransports}).
 *
 * <pre>{@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.SluiceClient --port 7000 \
 *     --interaction response --size 140 --window 512 --warmup 25 --seconds 20}</pre>
 */
public final class SluiceClient {

    private SluiceClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, SluiceClient::start, SluiceTransports.ALL, true);
    }

    private static void start(ChildOptions o, Meter meter, Latency latency, ClientReport report) {
        ClientTransport base = SluiceTransports.client(o);
        AtomicReference<EventExecutor> loop = new AtomicReference<>();
        // Only to learn the connection's event loop, where a paced load runs its schedule.
        ClientTransport transport = () -> base.connect().doOnNext(dc -> loop.set(dc.executor()));
        Connection c = RSocketConnector.create()
            .keepAlive(BenchMain.KEEP_ALIVE_INTERVAL, BenchMain.KEEP_ALIVE_MAX_LIFETIME)
            .connect(transport)
            .block(Duration.ofSeconds(30));
        c.onClose().subscribe(null, report::fail,
            () -> report.fail(new IllegalStateException("the connection closed")));
        ByteBuf template = Payloads.template(o.size());
        // Shared like the template: never released, and read by index only, so every request may carry it.
        ByteBuf metadata = o.metadataSize() == 0 ? null : Payloads.template(o.metadataSize());
        Supplier<Payload> request = () -> Payload.create(template, metadata);
        switch (o.interaction()) {
            case STREAM -> c.requestStream(request.get())
                .subscribe(new WindowedCounter<>(Payload::release, meter, report, o.demand()));
            case CHANNEL -> c.requestChannel(Flux.<Payload>generate(sink -> sink.next(request.get())))
                .subscribe(new WindowedCounter<>(Payload::release, meter, report, o.demand()));
            case RESPONSE -> {
                RequestLoop<Payload> requests = new RequestLoop<>(() -> c.requestResponse(request.get()),
                    Payload::release, meter,
                    report, latency);
                requests.stampAnswersPerTurn(loop.get());
                requests.startClosedLoop(o.window());
                if (o.paced()) {
                    new Pacer(o.rate(), o.maxInFlight(), System::nanoTime).start(requests, loop.get(), report);
                }
            }
            case FNF -> new FencedFireAndForget<>(() -> c.fireAndForget(request.get()),
                () -> c.requestResponse(request.get()), o.demand(), meter, report).start();
            default -> throw BenchMain.unsupported("sluice", o);
        }
    }
}
