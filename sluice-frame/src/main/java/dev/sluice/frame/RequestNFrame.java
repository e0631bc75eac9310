package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;

/**
 * REQUEST_N (0x08): more demand for a stream or channel. Credits add up and cannot be taken back.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                    Stream ID (31), &gt; 0                      |
 * +-----------+-+-+---------------+-------------------------------+
 * |Type = 0x08|0|0|     Flags     |
 * +-+-----------------------------+-------------------------------+
 * |0|                      Request N (31), &gt; 0                     |
 * +-+-------------------------------------------------------------+
 * </pre>
 *
 * <p>Demand is a {@code long} in the API: {@link #requestN} reads the wire's 2^31-1 as {@link Long#MAX_VALUE}
 * (unbounded, as rsocket-java does), and the encoder writes anything &ge; 2^31-1 as 2^31-1. The accounting of
 * credits is the caller's job and should saturate in {@code long}.
 *
 * <p>Readers trust the frame and allocate nothing. Stateless; thread-safe.
 */
public final class RequestNFrame {

    /** Offset of the request N field from the frame start. */
    public static final int REQUEST_N_OFFSET = FrameHeader.SIZE;
    /** Length of every REQUEST_N frame. */
    public static final int LENGTH = REQUEST_N_OFFSET + 4;

    private RequestNFrame() {
    }

    /**
     * Appends a REQUEST_N frame at {@code out.writerIndex()}.
     *
     * @param streamId the stream, &gt; 0
     * @param n the added demand, &ge; 1; anything &ge; 2^31-1 is sent as 2^31-1 (unbounded)
     * @return {@link #LENGTH}
     * @throws IllegalArgumentException if {@code streamId <= 0} or {@code n < 1}
     */
    public static int encode(ByteBuf out, int streamId, long n) {
        Checks.streamIdPositive(streamId, FrameType.REQUEST_N);
        int wire = Demand.toWire("n", n);
        out.ensureWritable(LENGTH);
        FrameHeader.encode(out, streamId, FrameType.REQUEST_N, 0);
        out.writeInt(wire);
        return LENGTH;
    }

    /** {@link #LENGTH}, whatever the arguments. */
    public static int encodedLength(int streamId, long n) {
        return LENGTH;
    }

    /** The added demand: the u31 field, with 2^31-1 read as {@link Long#MAX_VALUE} (unbounded). */
    public static long requestN(ByteBuf buf, int off) {
        return Demand.fromWire(buf.getInt(off + REQUEST_N_OFFSET));
    }
}
