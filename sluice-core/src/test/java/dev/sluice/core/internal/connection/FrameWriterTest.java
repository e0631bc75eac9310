package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.transport.DuplexConnection;
import dev.sluice.core.transport.FrameHandler;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.RequestNFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameWriter} batches, on an event loop that shares one {@link LoopWriteBuffer} among its connections and
 * on a thread without one: every transport gets exactly its own frames, in order, in buffers that later writes do
 * not touch, and a closed writer's frames go nowhere.
 */
class FrameWriterTest {

    /** Frames of two connections interleaved on one loop, across several shared buffers. */
    @Test
    void interleavedWritersEachGetTheirOwnFramesOnALoopThread() throws Exception {
        onThread(true, () -> interleave(3 * LoopWriteBuffer.CHUNK_BYTES / 100));
    }

    @Test
    void interleavedWritersEachGetTheirOwnFramesOnAPlainThread() throws Exception {
        onThread(false, () -> interleave(1_000));
    }

    /** The shared buffer is only worth having if Netty's own event loops get it. */
    @Test
    void nettyEventLoopsShareABufferAndPlainThreadsDoNot() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop(new DefaultThreadFactory("frame-writer-test"));
        try {
            assertThat(loop.submit(() -> LoopWriteBuffer.forCurrentThread() != null).get()).isTrue();
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
        assertThat(LoopWriteBuffer.forCurrentThread()).as("the test's own thread").isNull();
    }

    @Test
    void aFrameLargerThanTheSharedBufferGoesOutWhole() throws Exception {
        onThread(true, () -> {
            CapturingTransport t = new CapturingTransport();
            FrameWriter w = new FrameWriter(t, 0);
            writeFrame(w, 1, 10);
            writeFrame(w, 2, LoopWriteBuffer.CHUNK_BYTES * 2);
            writeFrame(w, 3, 10);
            w.flushNow();
            assertThat(t.frames()).containsExactly(frame(1, 10), frame(2, LoopWriteBuffer.CHUNK_BYTES * 2),
                frame(3, 10));
        });
    }

    @Test
    void aClosedWritersPendingFramesAreDropped() throws Exception {
        onThread(true, () -> {
            CapturingTransport kept = new CapturingTransport();
            CapturingTransport dropped = new CapturingTransport();
            FrameWriter a = new FrameWriter(kept, 0);
            FrameWriter b = new FrameWriter(dropped, 0);
            a.readBurstStarted();
            b.readBurstStarted();
            writeFrame(b, 1, 20);
            b.close();
            writeFrame(a, 2, 20);
            writeFrame(b, 3, 20);
            a.flushNow();
            b.flushNow();
            assertThat(kept.frames()).containsExactly(frame(2, 20));
            assertThat(dropped.frames()).isEmpty();
        });
    }

    /** Within a read burst: every BURST_FLUSH_FRAMES requests go out, so the peer starts on them meanwhile. */
    @Test
    void requestsWrittenInABurstAreFlushedEveryBurstFlushFrames() throws Exception {
        onThread(true, () -> {
            CapturingTransport t = new CapturingTransport();
            FrameWriter w = new FrameWriter(t, 0);
            w.readBurstStarted();
            for (int i = 1; i < FrameWriter.BURST_FLUSH_FRAMES; i++) {
                writeHeader(w, 2 * i + 1, FrameType.REQUEST_RESPONSE, 0);
            }
            assertThat(t.flushes).isZero();
            writeHeader(w, 999, FrameType.REQUEST_RESPONSE, 0);
            assertThat(t.flushes).isEqualTo(1);
            w.flushNow();
            assertThat(t.frames()).hasSize(FrameWriter.BURST_FLUSH_FRAMES);
        });
    }

    /**
     * Fire-and-forgets (nobody answers them) and stream elements wait for the burst's end; an answer or a REQUEST_N
     * written after the burst read BURST_FLUSH_FRAMES frames goes out at once (the fence after a run of
     * fire-and-forgets, more demand after a window of elements), one written after a few does not.
     */
    @Test
    void anAnswerGoesOutAtOnceAfterManyFramesWereReadButFireAndForgetsWait() throws Exception {
        onThread(true, () -> {
            CapturingTransport t = new CapturingTransport();
            FrameWriter w = new FrameWriter(t, 0);
            w.readBurstStarted();
            for (int i = 0; i < 3 * FrameWriter.BURST_FLUSH_FRAMES; i++) {
                writeHeader(w, 2 * i + 1, FrameType.REQUEST_FNF, 0);
                writeHeader(w, 2, FrameType.PAYLOAD, FrameFlags.NEXT);
            }
            assertThat(t.flushes).as("fire-and-forgets and stream elements").isZero();
            for (int i = 0; i < 5; i++) {
                w.frameRead();
            }
            writeHeader(w, 4, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE);
            assertThat(t.flushes).as("an answer after 5 frames read").isZero();
            for (int i = 5; i < FrameWriter.BURST_FLUSH_FRAMES; i++) {
                w.frameRead();
            }
            writeHeader(w, 6, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE);
            assertThat(t.flushes).as("an answer after BURST_FLUSH_FRAMES frames read").isEqualTo(1);
            writeHeader(w, 8, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE);
            assertThat(t.flushes).as("the count starts again at the flush").isEqualTo(1);
            for (int i = 0; i < FrameWriter.BURST_FLUSH_FRAMES; i++) {
                w.frameRead();
            }
            RequestNFrame.encode(w.begin(RequestNFrame.LENGTH), 2, 512);
            w.end();
            assertThat(t.flushes).as("more demand after a window of stream elements read").isEqualTo(2);
            w.flushNow();
            assertThat(t.frames()).hasSize(6 * FrameWriter.BURST_FLUSH_FRAMES + 4);
        });
    }

    /** Two writers, each in a read burst, taking turns frame by frame; sizes vary so buffers fill unevenly. */
    private static void interleave(int framesEach) {
        CapturingTransport ta = new CapturingTransport();
        CapturingTransport tb = new CapturingTransport();
        FrameWriter a = new FrameWriter(ta, 0);
        FrameWriter b = new FrameWriter(tb, 0);
        a.readBurstStarted();
        b.readBurstStarted();
        List<String> expectA = new ArrayList<>();
        List<String> expectB = new ArrayList<>();
        for (int i = 0; i < framesEach; i++) {
            int size = 1 + (i * 37) % 190;
            writeFrame(a, i, size);
            expectA.add(frame(i, size));
            writeFrame(b, i, size + 1);
            expectB.add(frame(i, size + 1));
            if (i % 97 == 0) {
                a.flushNow();
                a.readBurstStarted();
            }
        }
        a.flushNow();
        b.flushNow();
        // Compared only now: buffers handed over early must not have been overwritten by later frames.
        assertThat(ta.frames()).containsExactlyElementsOf(expectA);
        assertThat(tb.frames()).containsExactlyElementsOf(expectB);
        assertThat(ta.flushes).isPositive();
    }

    /** A frame body of {@code size} bytes: its number, then filler that depends on the number. */
    private static void writeFrame(FrameWriter w, int n, int size) {
        ByteBuf out = w.begin(size);
        for (int i = 0; i < size; i++) {
            out.writeByte(n + i);
        }
        w.end();
    }

    /** A frame that is only a header, as the flush policy reads it. */
    private static void writeHeader(FrameWriter w, int streamId, int type, int flags) {
        FrameHeader.encode(w.begin(FrameHeader.SIZE), streamId, type, flags);
        w.end();
    }

    private static String frame(int n, int size) {
        StringBuilder sb = new StringBuilder(size * 3);
        for (int i = 0; i < size; i++) {
            sb.append((byte) (n + i)).append(',');
        }
        return sb.toString();
    }

    private static void onThread(boolean loopThread, Runnable body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable guarded = () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        };
        Thread t = loopThread ? new FastThreadLocalThread(guarded) : new Thread(guarded);
        t.start();
        t.join();
        if (failure.get() instanceof AssertionError e) {
            throw e;
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    /** Keeps what it is given, unread, until {@link #frames} splits it into frames and releases it. */
    private static final class CapturingTransport implements DuplexConnection {
        private final EmbeddedChannel channel = new EmbeddedChannel();
        private final List<ByteBuf> written = new ArrayList<>();
        int flushes;

        List<String> frames() {
            List<String> out = new ArrayList<>();
            for (ByteBuf b : written) {
                while (b.isReadable()) {
                    int len = b.readUnsignedMedium();
                    StringBuilder sb = new StringBuilder(len * 3);
                    for (int i = 0; i < len; i++) {
                        sb.append(b.readByte()).append(',');
                    }
                    out.add(sb.toString());
                }
                b.release();
            }
            written.clear();
            return out;
        }

        @Override
        public ByteBufAllocator alloc() {
            return PooledByteBufAllocator.DEFAULT;
        }

        @Override
        public EventExecutor executor() {
            return channel.eventLoop();
        }

        @Override
        public boolean lengthPrefixed() {
            return true;
        }

        @Override
        public void start(FrameHandler handler) {
        }

        @Override
        public void write(ByteBuf frames) {
            written.add(frames);
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void close() {
        }

        @Override
        public SocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }

        @Override
        public SocketAddress localAddress() {
            return remoteAddress();
        }
    }
}
