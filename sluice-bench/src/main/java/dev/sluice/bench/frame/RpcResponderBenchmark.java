package dev.sluice.bench.frame;

import dev.sluice.bench.throughput.rpc.RpcServer;
import dev.sluice.bench.throughput.rpc.proto.Blob;
import dev.sluice.bench.throughput.rpc.proto.ThroughputRpc;
import dev.sluice.bench.throughput.rpc.proto.ThroughputService;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.rpc.RpcRouter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.List;
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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A whole Sluice RPC unary call on the responder, as generated code runs it: REQUEST_RESPONSE in with composite
 * metadata routing to {@code sluice.bench.v1.Throughput/Unary} and a protobuf {@code Blob}, the router's lookup,
 * the request parsed, the handler's constant answer serialized into the batch; a flush every 128. Run with
 * {@code -prof gc}: what remains per call should be the protobuf messages themselves (the parsed request and its
 * {@code ByteString}) and the handler's own {@code Mono.just}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class RpcResponderBenchmark {

    /** Calls per flush. */
    static final int PER_FLUSH = 128;

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private ByteBuf requests;
    private int frameLength;
    private int streamId;
    private int sinceFlush;

    @Setup(Level.Trial)
    public void setUp() {
        Blob answer = RpcServer.blob(payloadSize);
        ThroughputService service = new ThroughputService() {
            @Override
            public Mono<Blob> unary(Blob request) {
                return Mono.just(answer);
            }

            @Override
            public Flux<Blob> stream(Blob request) {
                return Flux.never();
            }
        };
        RpcRouter router = RpcRouter.of(ThroughputRpc.bind(service));
        transport = BenchConnection.connect(c -> router);
        inbound = transport.inbound();
        transport.runPendingTasks();
        ByteBuf metadata = PooledByteBufAllocator.DEFAULT.directBuffer();
        CompositeMetadata.addRoutingEntry(metadata, List.of("sluice.bench.v1.Throughput/Unary"));
        ByteBuf data = Unpooled.wrappedBuffer(RpcServer.blob(payloadSize).toByteArray());
        requests = PooledByteBufAllocator.DEFAULT.directBuffer();
        RequestResponseFrame.encode(requests, 2, false, metadata, data);
        metadata.release();
        data.release();
        frameLength = requests.readableBytes();
        streamId = 2;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long expected = (long) payloadSize + 9;
        if (transport.bytesWritten < expected) {
            throw new IllegalStateException("nothing was written: the benchmark measured nothing");
        }
        transport.connection().dispose();
        transport.runPendingTasks();
        requests.release();
    }

    @Benchmark
    public long unaryCall() {
        // The peer (a client calling our server) uses even stream ids here only because BenchConnection plays
        // the server's side; each call gets a fresh one, as on the wire.
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
