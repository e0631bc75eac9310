package dev.sluice.bench.frame;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * The requester's request-response as {@code sluice bench}'s closed loop drives it, without the socket:
 * {@value #WINDOW} requests in flight, answered in read bursts of {@value #BURST} PAYLOAD(N|C) frames, oldest
 * first; each answer's subscriber (one per request, as an application's would be) releases it and makes the next
 * request over a constant template, which starts when the burst ends, and the burst's requests are written and
 * flushed. One operation is one request answered and replaced, so the figure is the client's user-code cost per
 * message at that window, the share of its time a profile of the real pair puts outside the kernel.
 * {@link RequesterRequestResponseBenchmark} is the same path one request per burst, with a flush each.
 *
 * <p>Its call stack is shallower than a socket's read path (no decoder or pipeline below the engine), so the JIT
 * inlines more here: a change that moves work deeper into the read path can win here and lose in a real pair
 * (starting a burst's requests at once did: 9% faster here, slower in {@code sluice bench}). Confirm with the pair.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
@OperationsPerInvocation(RequesterClosedLoopBenchmark.BURST)
public class RequesterClosedLoopBenchmark {

    /** Requests in flight: the window at which the raw-Netty floor's closed loop is bound by its cores. */
    static final int WINDOW = 2048;
    /** Answers per read burst. */
    static final int BURST = 128;

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private Connection requester;
    private ByteBuf template;
    private ByteBuf answers;
    private int frameLength;
    /** The stream id of the oldest request in flight: the engine numbers requests 1, 3, 5, ... */
    private int nextAnswered = 1;
    long received;
    Throwable failed;

    @Setup(Level.Trial)
    public void setUp() {
        transport = BenchConnection.connect(c -> new RSocket() { });
        inbound = transport.inbound();
        requester = transport.connection();
        transport.runPendingTasks();
        // Constant and unreleasable, as the benchmark client's template: no buffer per request.
        template = Unpooled.unreleasableBuffer(
            PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize));
        ByteBuf data = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
        ByteBuf one = PooledByteBufAllocator.DEFAULT.directBuffer();
        PayloadFrame.encode(one, 1, false, true, true, null, data);
        data.release();
        frameLength = one.readableBytes();
        answers = PooledByteBufAllocator.DEFAULT.directBuffer(frameLength * BURST);
        for (int i = 0; i < BURST; i++) {
            answers.writeBytes(one, 0, frameLength);
        }
        one.release();
        for (int i = 0; i < WINDOW; i++) {
            request();
        }
        transport.runPendingTasks();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (received == 0 || failed != null) {
            throw new IllegalStateException("no answer arrived: the benchmark measured nothing", failed);
        }
        transport.connection().dispose();
        transport.runPendingTasks();
        answers.release();
    }

    @Benchmark
    public long readBurst() {
        for (int i = 0; i < BURST; i++) {
            int at = i * frameLength;
            answers.setInt(at, nextAnswered);
            nextAnswered += 2;
            inbound.onFrame(answers, at, frameLength);
        }
        inbound.onReadComplete();
        return received;
    }

    private void request() {
        requester.requestResponse(Payload.create(template)).subscribe(new Answer());
    }

    /** One request's subscriber: releases the answer, counts it and makes the next request. */
    private final class Answer implements CoreSubscriber<Payload> {

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Payload p) {
            p.release();
            received++;
        }

        @Override
        public void onError(Throwable t) {
            failed = t;
        }

        @Override
        public void onComplete() {
            request();
        }
    }
}
