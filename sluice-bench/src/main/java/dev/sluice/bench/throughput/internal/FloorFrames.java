package dev.sluice.bench.throughput.internal;

import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.RequestStreamFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Pre-encoded, length-prefixed RSocket frames for the raw-Netty floor, built once with the real encoders so the
 * floor moves exactly the bytes an RSocket stack would. Each buffer holds {@code count} frames of one length, so
 * {@code k} frames are the slice {@code [0, k * frameLength)}. Buffers are pooled direct buffers owned by the
 * caller. Stateless.
 */
public final class FloorFrames {

    /**
     * Request-response: the most frames written per flush, as Sluice's own writer does within a read burst: the
     * peer starts on the first answers while the rest are written, rather than the two sides taking turns.
     */
    public static final int FRAMES_PER_FLUSH = 128;

    private static final int PREFIX = 3;

    private FloorFrames() {
    }

    /** {@code count} PAYLOAD(N) frames of one stream (id 1), as a responder streams them. */
    public static ByteBuf streamPayloads(int count, int size) {
        return frames(count, size, Kind.STREAM_ELEMENT);
    }

    /** {@code count} PAYLOAD(N|C) frames on streams 1, 3, 5..., as a responder answers requests. */
    public static ByteBuf answers(int count, int size) {
        return frames(count, size, Kind.ANSWER);
    }

    /** {@code count} REQUEST_RESPONSE frames on streams 1, 3, 5... */
    public static ByteBuf requests(int count, int size) {
        return frames(count, size, Kind.REQUEST);
    }

    /** One REQUEST_STREAM frame (stream 1, initial demand 2^31-1). */
    public static ByteBuf streamRequest(int size) {
        return frames(1, size, Kind.STREAM_REQUEST);
    }

    /** The length of one frame in a buffer of {@code count} equal frames, prefix included. */
    public static int frameLength(ByteBuf frames, int count) {
        return frames.readableBytes() / count;
    }

    private enum Kind { STREAM_ELEMENT, ANSWER, REQUEST, STREAM_REQUEST }

    private static ByteBuf frames(int count, int size, Kind kind) {
        if (count <= 0) {
            throw new IllegalArgumentException("count <= 0: " + count);
        }
        ByteBuf data = Payloads.template(size);
        ByteBuf out = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            for (int i = 0; i < count; i++) {
                int streamId = kind == Kind.STREAM_ELEMENT ? 1 : (2 * i + 1) & 0x7FFFFFFF;
                int start = out.writerIndex();
                out.writeMedium(0);
                int length = switch (kind) {
                    case STREAM_ELEMENT -> PayloadFrame.encode(out, streamId, false, false, true, null, data);
                    case ANSWER -> PayloadFrame.encode(out, streamId, false, true, true, null, data);
                    case REQUEST -> RequestResponseFrame.encode(out, streamId, false, null, data);
                    case STREAM_REQUEST -> RequestStreamFrame.encode(out, streamId, false, Integer.MAX_VALUE, null,
                        data);
                };
                out.setMedium(start, length);
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            data.release();
        }
    }
}
