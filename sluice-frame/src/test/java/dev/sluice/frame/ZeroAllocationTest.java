package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.RoutingMetadataCursor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hot-path promise, checked with the JVM's per-thread allocation counter: validating a frame, reading its
 * fields, dispatching it through {@link FrameReader} and walking its composite and routing metadata allocate
 * nothing; so do encoding into a buffer that has room and fragmenting into a sink. (JMH {@code -prof gc} in
 * sluice-bench is the finer instrument; this guards against regressions in CI.)
 *
 * <p>The frames live in plain wrapped arrays: Netty's paranoid leak detector, on in tests, records a stack trace
 * on every access to the buffers it tracks, which would be the only allocation measured.
 */
class ZeroAllocationTest {

    private static final int WARMUP = 20_000;
    private static final int MEASURED = 100_000;
    private static final int ROUNDS = 5;
    /**
     * Slack for the measurement itself (JIT and safepoint bookkeeping may touch the counter). One allocated object
     * per frame would show as at least 16 bytes x {@value #MEASURED} = 1.6 MB, far above this.
     */
    private static final long SLACK_BYTES = 4096;

    private final TestBuffers bufs = new TestBuffers();
    private final CompositeMetadataCursor composite = new CompositeMetadataCursor();
    private final RoutingMetadataCursor routing = new RoutingMetadataCursor();
    private long sink;

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void validatingAndReadingFramesAllocatesNothing() {
        ByteBuf metadata = bufs.buffer();
        CompositeMetadata.addRoutingEntry(metadata, List.of("svc.method"));
        CompositeMetadata.addEntry(metadata, "application/x-custom", bufs.utf8("c"));
        ByteBuf out = bufs.buffer();
        RequestStreamFrame.encode(out, 5, false, 100, metadata, bufs.utf8("data"));
        int streamLen = out.writerIndex();
        PayloadFrame.encode(out, 5, false, false, true, null, bufs.utf8("data"));
        int payloadLen = out.writerIndex() - streamLen;
        RequestNFrame.encode(out, 5, 32);
        LeaseFrame.encode(out, 1000, 10, null);
        ByteBuf frames = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(out));

        Runnable work = () -> {
            int off = 0;
            sink += FrameValidator.validate(frames, off, streamLen) == null ? 1 : 0;
            sink += RequestStreamFrame.initialRequestN(frames, off) + FrameHeader.streamId(frames, off);
            int mdOff = RequestStreamFrame.metadataOffset(frames, off);
            int mdLen = RequestStreamFrame.metadataLength(frames, off, streamLen);
            sink += RequestStreamFrame.dataOffset(frames, off, streamLen)
                    + RequestStreamFrame.dataLength(frames, off, streamLen);
            composite.wrap(frames, mdOff, mdLen);
            while (composite.next()) {
                if (composite.mimeId() == 0x7E) {
                    routing.wrap(frames, composite.contentIndex(), composite.contentLength());
                    while (routing.next()) {
                        sink += routing.tagEquals("svc.method") ? 1 : 0;
                    }
                }
                sink += composite.mimeTypeEquals("application/x-custom") ? 1 : 0;
            }
            off += streamLen;
            sink += FrameValidator.validate(frames, off, payloadLen) == null ? 1 : 0;
            sink += PayloadFrame.isNext(frames, off) ? PayloadFrame.dataLength(frames, off, payloadLen) : 0;
            off += payloadLen;
            sink += FrameValidator.validate(frames, off, RequestNFrame.LENGTH) == null ? 1 : 0;
            sink += RequestNFrame.requestN(frames, off);
            off += RequestNFrame.LENGTH;
            sink += FrameValidator.validate(frames, off, LeaseFrame.METADATA_OFFSET) == null ? 1 : 0;
            sink += LeaseFrame.ttlMillis(frames, off) + LeaseFrame.numberOfRequests(frames, off);
        };

        long allocated = allocatedBy(work);

        assertThat(allocated).as("fewest bytes allocated by %d iterations", MEASURED).isLessThan(SLACK_BYTES);
        assertThat(sink).isPositive();
    }

    @Test
    void encodingIntoARoomyBufferAllocatesNothing() {
        ByteBuf out = Unpooled.wrappedBuffer(new byte[256]);
        ByteBuf metadata = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
        ByteBuf data = Unpooled.wrappedBuffer(new byte[] {4, 5, 6, 7});

        Runnable work = () -> {
            out.clear();
            sink += PayloadFrame.encode(out, 5, false, false, true, metadata, data);
            sink += PayloadFrame.encode(out, 5, true, false, true, metadata, 1, 2, data, 0, 3);
            sink += RequestNFrame.encode(out, 5, Long.MAX_VALUE);
            sink += RequestResponseFrame.encode(out, 7, false, null, data);
            sink += CancelFrame.encode(out, 7);
            sink += ErrorFrame.encode(out, 7, ErrorCodes.REJECTED, "lease_exhausted");
        };

        long allocated = allocatedBy(work);

        assertThat(allocated).as("fewest bytes allocated by %d iterations", MEASURED).isLessThan(SLACK_BYTES);
    }

    @Test
    void fragmentingIntoARoomySinkAllocatesNothing() {
        ByteBuf out = Unpooled.wrappedBuffer(new byte[1024]);
        ByteBuf metadata = Unpooled.wrappedBuffer(new byte[100]);
        ByteBuf data = Unpooled.wrappedBuffer(new byte[300]);
        FrameSink into = new FrameSink() {
            @Override
            public ByteBuf begin(int sizeHint) {
                sink += sizeHint;
                return out;
            }

            @Override
            public void end() {
                sink++;
            }

            @Override
            public void abort() {
                throw new AssertionError("no frame is dropped here");
            }
        };

        Runnable work = () -> {
            out.clear();
            Fragmenter.write(into, 64, FrameType.REQUEST_CHANNEL, 5, FrameFlags.COMPLETE, 16, metadata, data);
            Fragmenter.write(into, 0, FrameType.PAYLOAD, 5, FrameFlags.NEXT, 0, null, data);
        };

        long allocated = allocatedBy(work);

        assertThat(allocated).as("fewest bytes allocated by %d iterations", MEASURED).isLessThan(SLACK_BYTES);
    }

    @Test
    void readingEveryFrameTypeThroughTheReaderAllocatesNothing() {
        ByteBuf out = bufs.buffer();
        ByteBuf md = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
        ByteBuf data = Unpooled.wrappedBuffer(new byte[] {4, 5, 6, 7});
        int[] ends = {
            SetupFrame.encode(out, true, 500, 9000, null, "m", "d", md, data),
            LeaseFrame.encode(out, 1000, 10, md),
            KeepAliveFrame.encode(out, true, 0, data),
            RequestResponseFrame.encode(out, 1, false, md, data),
            RequestFnfFrame.encode(out, 3, false, null, data),
            RequestStreamFrame.encode(out, 5, false, 32, md, data),
            RequestChannelFrame.encode(out, 7, false, true, Long.MAX_VALUE, md, data),
            RequestNFrame.encode(out, 5, 8),
            CancelFrame.encode(out, 7),
            PayloadFrame.encode(out, 5, false, false, true, md, data),
            ErrorFrame.encode(out, 5, ErrorCodes.APPLICATION_ERROR, "e"),
            MetadataPushFrame.encode(out, md),
            ResumeFrame.encode(out, md, 1, 2),
            ResumeOkFrame.encode(out, 3),
            ExtFrame.encode(out, 0, true, 9, md, data),
        };
        for (int i = 1; i < ends.length; i++) {
            ends[i] += ends[i - 1]; // frame lengths to end offsets
        }
        ByteBuf frames = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(out));
        SummingHandler handler = new SummingHandler();

        Runnable work = () -> {
            int off = 0;
            for (int end : ends) {
                FrameReader.read(frames, off, end - off, handler);
                off = end;
            }
        };

        work.run();
        assertThat(handler.calls).as("one handler call per frame").isEqualTo(ends.length);

        long allocated = allocatedBy(work);

        assertThat(allocated).as("fewest bytes allocated by %d iterations", MEASURED).isLessThan(SLACK_BYTES);
        assertThat(handler.malformed).isZero();
        assertThat(handler.sum).isPositive();
    }

    /**
     * The fewest bytes any of {@value #ROUNDS} measured rounds allocated. A real allocation per frame shows in
     * every round; a one-off (the interpreter or C1 running the loop until C2's escape analysis lands, which on a
     * busy 2-core machine can take a while after warm-up) shows in one round only.
     */
    private static long allocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP; i++) {
            work.run();
        }
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && fewest >= SLACK_BYTES; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++) {
                work.run();
            }
            fewest = Math.min(fewest, threads.getCurrentThreadAllocatedBytes() - before);
        }
        return fewest;
    }

    /** Adds up what it is given, so that nothing it receives is dead code, and allocates nothing. */
    private static final class SummingHandler implements FrameReader.Handler {
        long sum;
        long calls;
        long malformed;

        @Override
        public void setup(ByteBuf buf, int off, int len) {
            calls++;
            sum += SetupFrame.keepAliveIntervalMillis(buf, off) + SetupFrame.dataLength(buf, off, len);
        }

        @Override
        public void resume(ByteBuf buf, int off, int len) {
            calls++;
            sum += ResumeFrame.lastReceivedServerPosition(buf, off);
        }

        @Override
        public void resumeOk(ByteBuf buf, int off, int len) {
            calls++;
            sum += ResumeOkFrame.lastReceivedClientPosition(buf, off);
        }

        @Override
        public void lease(long ttlMillis, int numberOfRequests, ByteBuf buf, int mdOffset, int mdLength) {
            calls++;
            sum += ttlMillis + numberOfRequests + mdOffset + mdLength;
        }

        @Override
        public void keepAlive(boolean respond, long position, ByteBuf buf, int dataOffset, int dataLength) {
            calls++;
            sum += (respond ? 1 : 0) + position + dataOffset + dataLength;
        }

        @Override
        public void requestResponse(int streamId, int flags, ByteBuf buf, int mdOffset, int mdLength,
                int dataOffset, int dataLength) {
            calls++;
            sum += streamId + flags + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void requestFireAndForget(int streamId, int flags, ByteBuf buf, int mdOffset, int mdLength,
                int dataOffset, int dataLength) {
            calls++;
            sum += streamId + flags + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void requestStream(int streamId, int flags, long n, ByteBuf buf, int mdOffset, int mdLength,
                int dataOffset, int dataLength) {
            calls++;
            sum += streamId + flags + n + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void requestChannel(int streamId, int flags, long n, ByteBuf buf, int mdOffset, int mdLength,
                int dataOffset, int dataLength) {
            calls++;
            sum += streamId + flags + (n & 0xFF) + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void payload(int streamId, int flags, ByteBuf buf, int mdOffset, int mdLength, int dataOffset,
                int dataLength) {
            calls++;
            sum += streamId + flags + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void requestN(int streamId, long n) {
            calls++;
            sum += streamId + n;
        }

        @Override
        public void cancel(int streamId) {
            calls++;
            sum += streamId;
        }

        @Override
        public void error(int streamId, int errorCode, ByteBuf buf, int messageOffset, int messageLength) {
            calls++;
            sum += streamId + errorCode + messageOffset + messageLength;
        }

        @Override
        public void metadataPush(int streamId, ByteBuf buf, int mdOffset, int mdLength) {
            calls++;
            sum += streamId + mdOffset + mdLength;
        }

        @Override
        public void ext(int streamId, int flags, int extendedType, ByteBuf buf, int mdOffset, int mdLength,
                int dataOffset, int dataLength) {
            calls++;
            sum += streamId + flags + extendedType + mdOffset + mdLength + dataOffset + dataLength;
        }

        @Override
        public void malformed(String problem) {
            malformed++;
        }
    }
}
