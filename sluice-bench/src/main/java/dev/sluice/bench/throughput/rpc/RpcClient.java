package dev.sluice.bench.throughput.rpc;

import dev.sluice.bench.throughput.SluiceTransports;
import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import dev.sluice.bench.throughput.internal.Pacer;
import dev.sluice.bench.throughput.internal.RequestLoop;
import dev.sluice.bench.throughput.internal.WindowedCounter;
import dev.sluice.bench.throughput.rpc.proto.Blob;
import dev.sluice.bench.throughput.rpc.proto.ThroughputClient;
import dev.sluice.bench.throughput.rpc.proto.ThroughputRpc;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Sluice RPC benchmark client, one connection: calls {@code Throughput/Unary} in a closed loop of
 * {@code --window} calls (each answer starting the next, as {@code SluiceClient} does) or, after that loop's
 * warm-up, paced; or {@code Throughput/Stream} once, counting the replies under a bounded demand.
 */
public final class RpcClient {

    private RpcClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, RpcClient::start, SluiceTransports.ALL);
    }

    private static void start(ChildOptions o, Meter meter, Latency latency, ClientReport report) {
        ClientTransport base = SluiceTransports.client(o);
        AtomicReference<EventExecutor> loop = new AtomicReference<>();
        // Only to learn the connection's event loop, where a paced load runs its schedule.
        ClientTransport transport = () -> base.connect().doOnNext(dc -> loop.set(dc.executor()));
        Connection c = RSocketConnector.create()
            .keepAlive(BenchMain.KEEP_ALIVE_INTERVAL, BenchMain.KEEP_ALIVE_MAX_LIFETIME)
            .metadataMimeType("message/x.rsocket.composite-metadata.v0")
            .dataMimeType("application/vnd.google.protobuf")
            .connect(transport)
            .block(Duration.ofSeconds(30));
        c.onClose().subscribe(null, report::fail,
            () -> report.fail(new IllegalStateException("the connection closed")));
        ThroughputClient client = ThroughputRpc.client(c);
        Blob request = RpcServer.blob(o.size());
        switch (o.interaction()) {
            case STREAM -> client.stream(request)
                .subscribe(new WindowedCounter<>(blob -> { }, meter, report, o.demand()));
            case RESPONSE -> {
                RequestLoop<Blob> calls = new RequestLoop<>(() -> client.unary(request), blob -> { },
                    meter, report, latency);
                calls.stampAnswersPerTurn(loop.get());
                calls.startClosedLoop(o.window());
                if (o.paced()) {
                    new Pacer(o.rate(), o.maxInFlight(), System::nanoTime).start(calls, loop.get(), report);
                }
            }
            default -> throw BenchMain.unsupported("sluice-rpc", o);
        }
    }
}
