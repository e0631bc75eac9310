package dev.sluice.bench.frame;

import dev.sluice.core.Connection;
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
 * The requester's whole request-response path, one request per operation, as the closed loop of
 * {@code sluice bench} drives it on the event loop: {@code requestResponse(payload).subscribe(...)} encodes
 * REQUEST_RESPONSE into the batch, then the answer, a PAYLOAD(N|C) on that stream, is read, dispatched and
 * delivered, and the subscriber releases it; each answer is one read burst, so the batch is flushed once per
 * request (a peer answering one request at a time). Run with {@code -prof gc}: the request's {@code Mono} is per
 * request by nature; nothing else should be.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
public class RequesterRequestResponseBenchmark {

    @Param({"4", "140"})
    int payloadSize;

    private BenchConnection transport;
    private FrameHandler inbound;
    private Connection requester;
    private ByteBuf template;
    private ByteBuf answer;
    private int frameLength;
    private int streamId;
    private final Answers answers = new Answers();

    @Setup(Level.Trial)
    public void setUp() {
        transport = BenchConnection.connect(c -> new RSocket() { });
        inbound = transport.inbound();
        requester = transport.connection();
        transport.runPendingTasks();
        template = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
        answer = PooledByteBufAllocator.DEFAULT.directBuffer();
        ByteBuf data = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
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
        template.release();
        answer.release();
    }

    @Benchmark
    public long requestResponse() {
        requester.requestResponse(Payload.create(template.retainedDuplicate())).subscribe(answers);
        // Our requests use odd stream ids, one after another.
        answer.setInt(0, streamId);
        streamId += 2;
        inbound.onFrame(answer, 0, frameLength);
        // Each answer is its own read burst: a request made while a burst is handled starts when it ends, so the
        // next request must not be made inside one.
        inbound.onReadComplete();
        return answers.received;
    }

    /** Requests the answer and releases it; reused across requests (the benchmark's own, not the engine's). */
    private static final class Answers implements CoreSubscriber<Payload> {
        long received;
        Throwable failed;

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
            failed = t;
        }

        @Override
        public void onComplete() {
        }
    }
}
