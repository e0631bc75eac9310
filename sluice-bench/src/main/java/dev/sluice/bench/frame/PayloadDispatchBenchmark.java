package dev.sluice.bench.frame;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.PayloadFrame;
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
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * Decode + dispatch of inbound PAYLOAD frames on an active request-stream: validate, read the header, look the
 * stream up, account demand, build the zero-copy payload, deliver it to the subscriber (which releases it).
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is bytes allocated per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class PayloadDispatchBenchmark {

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private ByteBuf frame;
    private int frameLength;
    private long received;
    private boolean tearingDown;

    @Setup(Level.Trial)
    public void setUp() {
        transport = BenchConnection.connect(c -> new RSocket() { });
        inbound = transport.inbound();
        transport.connection().requestStream(Payload.create("go")).subscribe(new CoreSubscriber<Payload>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(Payload p) {
                received++;
                p.release();
            }

            @Override
            public void onError(Throwable t) {
                // The teardown's dispose fails the stream; anything earlier means frames went unmeasured.
                if (!tearingDown) {
                    throw new IllegalStateException("stream failed", t);
                }
            }

            @Override
            public void onComplete() {
            }
        });
        transport.runPendingTasks();
        frame = PooledByteBufAllocator.DEFAULT.directBuffer();
        ByteBuf data = PooledByteBufAllocator.DEFAULT.buffer(payloadSize).writeZero(payloadSize);
        PayloadFrame.encode(frame, 1, false, false, true, null, data);
        data.release();
        frameLength = frame.readableBytes();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (received == 0) {
            throw new IllegalStateException("no payload was delivered: the benchmark measured nothing");
        }
        tearingDown = true;
        transport.connection().dispose();
        transport.runPendingTasks();
        frame.release();
    }

    @Benchmark
    public long decodeAndDispatch() {
        inbound.onFrame(frame, 0, frameLength);
        return received;
    }
}
