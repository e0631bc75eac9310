package dev.sluice.bench.frame;

import dev.sluice.bench.throughput.rpc.RpcServer;
import dev.sluice.bench.throughput.rpc.proto.Blob;
import dev.sluice.bench.throughput.rpc.proto.ThroughputClient;
import dev.sluice.bench.throughput.rpc.proto.ThroughputRpc;
import dev.sluice.core.RSocket;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.PayloadFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
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
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * A generated client's whole unary call, one call per operation, driven as {@link RequesterRequestResponseBenchmark}
 * drives a raw request-response: the stub encodes the request and its route into REQUEST_RESPONSE, the answer (a
 * PAYLOAD holding an encoded {@code Blob}) is read, dispatched, decoded and delivered. The difference between the
 * two benchmarks is what the RPC layer costs a client; {@code -prof gc} shows what it allocates besides the
 * messages.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class RpcRequesterBenchmark {

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private ThroughputClient client;
    private Blob request;
    private ByteBuf answer;
    private int frameLength;
    private int streamId;
    private final Answers answers = new Answers();

    @Setup(Level.Trial)
    public void setUp() {
        transport = BenchConnection.connect(c -> new RSocket() { });
        inbound = transport.inbound();
        client = ThroughputRpc.client(transport.connection());
        transport.runPendingTasks();
        request = RpcServer.blob(payloadSize);
        answer = PooledByteBufAllocator.DEFAULT.directBuffer();
        ByteBuf data = Unpooled.wrappedBuffer(RpcServer.blob(payloadSize).toByteArray());
        PayloadFrame.encode(answer, 1, false, true, true, null, data);
        data.release();
        frameLength = answer.readableBytes();
        streamId = 1;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (answers.received == 0 || answers.failed != null) {
            throw new IllegalStateException("no answer arrived: the benchmark measured nothing", answers.failed);
        }
        transport.connection().dispose();
        transport.runPendingTasks();
        answer.release();
    }

    @Benchmark
    public long unaryCall() {
        client.unary(request).subscribe(answers);
        answer.setInt(0, streamId);
        streamId += 2;
        inbound.onFrame(answer, 0, frameLength);
        inbound.onReadComplete();
        return answers.received;
    }

    /** Counts the answers; reused across calls (the benchmark's own, not the stub's). */
    private static final class Answers implements CoreSubscriber<Blob> {
        long received;
        Throwable failed;

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Blob b) {
            received++;
        }

        @Override
        public void onError(Throwable t) {
            failed = t;
        }

        @Override
        public void onComplete() {
        }
    }
}
