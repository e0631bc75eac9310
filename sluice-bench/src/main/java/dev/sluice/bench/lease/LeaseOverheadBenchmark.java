package dev.sluice.bench.lease;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Request-response throughput over loopback TCP with leases off and on (a lease that never runs out: 2^31-1
 * requests per hour), in one run, to measure what lease enforcement and availability tracking cost.
 * One operation = one request; 256 in flight.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class LeaseOverheadBenchmark {

    private static final int BATCH = 20_000;

    @Param({"off", "on"})
    String leases;

    private CloseableServer server;
    private Connection client;
    private Flux<Payload> batch;

    @Setup(Level.Trial)
    public void setUp() {
        boolean on = leases.equals("on");
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        };
        RSocketServer s = RSocketServer.create(SocketAcceptor.with(echo));
        RSocketConnector c = RSocketConnector.create();
        if (on) {
            s.lease(scheduler -> Leases.of(Leases.fixed(Duration.ofHours(1), Integer.MAX_VALUE, scheduler)));
            c.lease();
        }
        server = s.bind(TcpServerTransport.create("127.0.0.1", 0)).block();
        client = c.connect(TcpClientTransport.create("127.0.0.1", server.port())).block();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (on && client.availability() < 1.0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        batch = Flux.range(0, BATCH)
            .flatMap(i -> client.requestResponse(Payload.create(new byte[] {1, 2, 3, 4})), 256)
            .doOnNext(Payload::release);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        client.dispose();
        server.dispose();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Long requestResponse() {
        Long n = batch.count().block();
        if (n == null || n != BATCH) {
            throw new IllegalStateException("expected " + BATCH + " responses, got " + n);
        }
        return n;
    }
}
