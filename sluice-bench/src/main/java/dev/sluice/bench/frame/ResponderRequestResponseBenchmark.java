package dev.sluice.bench.frame;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.micrometer.SluiceMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

/**
 * The responder's whole request-response path, one request per operation: an inbound REQUEST_RESPONSE frame is
 * validated and dispatched to the handler, whose {@code Mono.just} answer is encoded as PAYLOAD(N|C) into the
 * batch, the stream is removed, and every {@value #PER_FLUSH} requests the batch is flushed (a read burst's end).
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is bytes allocated per request (the stream's state and
 * the handler's {@code Mono} are per request by nature; the frames are not). {@code metrics=true} records every
 * request with {@code sluice-micrometer} in a Prometheus registry: the difference is what metrics cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class ResponderRequestResponseBenchmark {

    /** Requests per flush. */
    static final int PER_FLUSH = 128;

    @Param({"4", "140"})
    int payloadSize;

    @Param({"false", "true"})
    boolean metrics;

    private BenchConnection transport;
    private FrameHandler inbound;
    private ByteBuf template;
    private ByteBuf requests;
    private int frameLength;
    private int streamId;
    private int sinceFlush;

    @Setup(Level.Trial)
    public void setUp() {
        transport = BenchConnection.connect(c -> new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                return Mono.just(Payload.create(template.retainedDuplicate()));
            }
        }, connector -> metrics ? connector.metrics(SluiceMetrics.create(
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).responders()) : connector);
        inbound = transport.inbound();
        transport.runPendingTasks();
        template = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
        requests = PooledByteBufAllocator.DEFAULT.directBuffer();
        ByteBuf data = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
        RequestResponseFrame.encode(requests, 2, false, null, data);
        data.release();
        frameLength = requests.readableBytes();
        streamId = 2;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long expected = (long) payloadSize + 9; // length prefix, header, data
        if (transport.bytesWritten < expected) {
            throw new IllegalStateException("nothing was written: the benchmark measured nothing");
        }
        transport.connection().dispose();
        transport.runPendingTasks();
        template.release();
        requests.release();
    }

    @Benchmark
    public long requestResponse() {
        // The peer (a server) uses even stream ids; each request gets a fresh one, as on the wire.
        requests.setInt(0, streamId);
        streamId = streamId >= Integer.MAX_VALUE - 2 ? 2 : streamId + 2;
        inbound.onFrame(requests, 0, frameLength);
        if (++sinceFlush == PER_FLUSH) {
            sinceFlush = 0;
            inbound.onReadComplete();
        }
        return transport.flushes;
    }
}
