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
 * fields and walking its composite and routing metadata allocate nothing; so does encoding into a buffer that has
 * room. (JMH {@code -prof gc} in sluice-bench is the finer instrument; this guards against regressions in CI.)
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
}
