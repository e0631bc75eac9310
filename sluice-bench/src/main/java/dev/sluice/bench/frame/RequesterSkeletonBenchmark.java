package dev.sluice.bench.frame;

import dev.sluice.core.Payload;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
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
import reactor.core.publisher.Mono;

/**
 * A lower bound for {@link RequesterClosedLoopBenchmark}: the same closed loop (window, bursts, one subscriber per
 * request, the next request made from each answer's {@code onComplete}) through the least work any requester with
 * a Reactor API must do per request — one {@code Mono} per request with a compare-and-set at subscribe and one at
 * request, a message object each way, a table indexed by stream id, the request frame written and the answer's
 * header read — and nothing else: no validation, no leases, no closing, no fragmenting, no flush policy. Not an
 * engine; it reads how far the real requester's cost per request is from the API's own.
 *
 * <p>{@code message}: {@code payload} makes each message a Sluice {@link Payload} ({@code Payload.create} for the
 * request, a borrowed payload for the answer, both released: the per-thread pool), {@code object} a plain object
 * left to the garbage collector, as a payload that is not pooled would be.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreads.JMH_EXECUTOR, EventLoopThreads.JMH_EXECUTOR_CLASS,
    "-Dio.netty.leakDetection.level=disabled"})
@OperationsPerInvocation(RequesterClosedLoopBenchmark.BURST)
public class RequesterSkeletonBenchmark {

    private static final int WINDOW = RequesterClosedLoopBenchmark.WINDOW;
    private static final int BURST = RequesterClosedLoopBenchmark.BURST;
    /** The 6-bit type above the 10 bits of flags. */
    private static final int TYPE_SHIFT = 10;

    @Param({"4"})
    int payloadSize;

    @Param({"payload", "object"})
    String message;

    private boolean pooled;

    private ByteBuf templateBuffer;
    private ByteBuf template;
    private ByteBuf answers;
    private ByteBuf out;
    private int frameLength;
    private int nextAnswered = 1;
    private int nextId = 1;
    private final Request[] table = new Request[WINDOW * 2];
    private Request[] starts = new Request[256];
    private int startCount;
    long received;

    @Setup(Level.Trial)
    public void setUp() {
        pooled = switch (message) {
            case "payload" -> true;
            case "object" -> false;
            default -> throw new IllegalArgumentException("message: payload or object, not " + message);
        };
        templateBuffer = PooledByteBufAllocator.DEFAULT.directBuffer(payloadSize).writeZero(payloadSize);
        template = Unpooled.unreleasableBuffer(templateBuffer);
        frameLength = 6 + payloadSize;
        answers = PooledByteBufAllocator.DEFAULT.directBuffer(frameLength * BURST);
        for (int i = 0; i < BURST; i++) {
            answers.writeInt(0)
                .writeShort((FrameType.PAYLOAD << TYPE_SHIFT) | FrameFlags.NEXT | FrameFlags.COMPLETE)
                .writeZero(payloadSize);
        }
        out = PooledByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        for (int i = 0; i < WINDOW; i++) {
            request();
        }
        runStarts();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (received == 0) {
            throw new IllegalStateException("no answer arrived: the benchmark measured nothing");
        }
        answers.release();
        out.release();
        templateBuffer.release();
    }

    @Benchmark
    public long readBurst() {
        for (int i = 0; i < BURST; i++) {
            int at = i * frameLength;
            answers.setInt(at, nextAnswered);
            nextAnswered += 2;
            onFrame(answers, at, frameLength);
        }
        runStarts();
        return received;
    }

    private void onFrame(ByteBuf buf, int off, int len) {
        int id = buf.getInt(off);
        if (FrameHeader.frameType(buf, off) != FrameType.PAYLOAD) {
            throw new IllegalStateException("not a PAYLOAD");
        }
        int slot = slot(id);
        Request r = table[slot];
        table[slot] = null;
        if (pooled) {
            Payload p = Payload.borrowRegions(buf, 0, -1, off + 6, len - 6);
            r.answer(p);
            Payload.endBorrow(p);
        } else {
            r.answer(new Message(buf, off + 6, len - 6));
        }
    }

    /** Requests are numbered 1, 3, 5...: the ids in flight fill consecutive slots. */
    private int slot(int id) {
        return (id >>> 1) & (table.length - 1);
    }

    private void runStarts() {
        for (int i = 0; i < startCount; i++) {
            Request r = starts[i];
            starts[i] = null;
            r.start();
        }
        startCount = 0;
        out.clear();
    }

    private void request() {
        Object m = pooled ? Payload.create(template) : new Message(template, template.readerIndex(), payloadSize);
        new Request(m).subscribe(new Answer());
    }

    /** A message that is not pooled: a view of a buffer's region, left to the garbage collector. */
    private record Message(ByteBuf buffer, int offset, int length) {
    }

    /** The Mono, its subscription and its table entry in one, as the engine's is. */
    private final class Request extends Mono<Object> implements Subscription {
        private static final AtomicIntegerFieldUpdater<Request> STATE =
            AtomicIntegerFieldUpdater.newUpdater(Request.class, "state");
        private volatile int state;
        private Object payload;
        private CoreSubscriber<? super Object> actual;

        Request(Object payload) {
            this.payload = payload;
        }

        @Override
        public void subscribe(CoreSubscriber<? super Object> s) {
            if (!STATE.compareAndSet(this, 0, 1)) {
                throw new IllegalStateException("one subscriber");
            }
            actual = s;
            s.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            if (STATE.compareAndSet(this, 1, 2)) {
                if (startCount == starts.length) {
                    starts = java.util.Arrays.copyOf(starts, startCount * 2);
                }
                starts[startCount++] = this;
            }
        }

        @Override
        public void cancel() {
            STATE.set(this, 3);
        }

        void start() {
            int id = nextId;
            nextId += 2;
            table[slot(id)] = this;
            Object m = payload;
            payload = null;
            ByteBuf data;
            int dataIndex;
            int dataLength;
            if (m instanceof Payload p) {
                data = p.dataBuffer();
                dataIndex = p.dataIndex();
                dataLength = p.dataLength();
            } else {
                Message plain = (Message) m;
                data = plain.buffer();
                dataIndex = plain.offset();
                dataLength = plain.length();
            }
            int length = 6 + dataLength;
            int at = out.writerIndex();
            out.ensureWritable(3 + length);
            out.setMedium(at, length);
            out.setInt(at + 3, id);
            out.setShort(at + 7, FrameType.REQUEST_RESPONSE << TYPE_SHIFT);
            out.setBytes(at + 9, data, dataIndex, dataLength);
            out.writerIndex(at + 3 + length);
            if (m instanceof Payload p) {
                p.release();
            }
        }

        void answer(Object p) {
            state = 4;
            actual.onNext(p);
            actual.onComplete();
        }
    }

    private final class Answer implements CoreSubscriber<Object> {

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Object m) {
            if (m instanceof Payload p) {
                p.release();
            }
            received++;
        }

        @Override
        public void onError(Throwable t) {
            throw new IllegalStateException(t);
        }

        @Override
        public void onComplete() {
            request();
        }
    }
}
