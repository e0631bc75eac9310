package dev.sluice.bench.frame;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.RequestStreamFrame;
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
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;

/**
 * Encode + flush of outbound PAYLOAD frames on an active responder request-stream: the handler's publisher emits
 * a payload, the engine checks demand, encodes the frame into the connection's batch buffer, releases the payload,
 * and every {@value #PER_FLUSH} frames ends the batch with a flush (what a read burst's end or a flush task does).
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is bytes allocated per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class PayloadEncodeBenchmark {

    /** Frames per flush. */
    static final int PER_FLUSH = 128;

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private ByteBuf template;
    private Subscriber<? super Payload> emitter;
    private int sinceFlush;

    @Setup(Level.Trial)
    public void setUp() {
        Publisher<Payload> outbound = s -> {
            emitter = s;
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
        };
        transport = BenchConnection.connect(c -> new RSocket() {
            @Override
            public Flux<Payload> requestStream(Payload payload) {
                payload.release();
                return Flux.from(outbound);
            }
        });
        inbound = transport.inbound();
        // The peer (a server: even stream ids) asks for an unbounded stream.
        ByteBuf request = PooledByteBufAllocator.DEFAULT.directBuffer();
        RequestStreamFrame.encode(request, 2, false, Integer.MAX_VALUE, null,
            PooledByteBufAllocator.DEFAULT.buffer(0));
        inbound.onFrame(request, 0, request.readableBytes());
        inbound.onReadComplete();
        request.release();
        transport.runPendingTasks();
        if (emitter == null) {
            throw new IllegalStateException("the handler's stream was not subscribed");
        }
        template = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
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
    }

    @Benchmark
    public long encodeAndFlush() {
        emitter.onNext(Payload.create(template.retainedDuplicate()));
        if (++sinceFlush == PER_FLUSH) {
            sinceFlush = 0;
            inbound.onReadComplete();
        }
        return transport.flushes;
    }
}
