package dev.sluice.bench.throughput.internal;

import io.netty.buffer.ByteBuf;

/**
 * Counts the RSocket frames in a TCP byte stream by walking their 3-byte length prefixes, and nothing else: what
 * the raw-Netty floor does instead of decoding. Frames and prefixes may be split across reads at any byte; the
 * walker carries the split over in two ints. Allocation-free; not thread-safe (one per connection, on its event
 * loop).
 */
public final class FrameWalker {

    /** Bytes still to skip in the current frame; 0 when a length prefix comes next. */
    private int remaining;
    /** Length-prefix bytes seen so far when a prefix was split, 0..2. */
    private int prefixBytes;
    private int prefix;

    /**
     * Walks the readable bytes of {@code buf} (its indexes do not move).
     *
     * @return the frames completed in these bytes
     */
    public int walk(ByteBuf buf) {
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        int frames = 0;
        while (i < end) {
            if (remaining > 0) {
                int step = Math.min(remaining, end - i);
                i += step;
                remaining -= step;
                if (remaining == 0) {
                    frames++;
                }
            } else if (prefixBytes == 0 && end - i >= 3) {
                remaining = buf.getUnsignedMedium(i);
                i += 3;
                if (remaining == 0) {
                    frames++;
                }
            } else {
                prefix = prefix << 8 | buf.getUnsignedByte(i++);
                if (++prefixBytes == 3) {
                    remaining = prefix;
                    prefix = 0;
                    prefixBytes = 0;
                    if (remaining == 0) {
                        frames++;
                    }
                }
            }
        }
        return frames;
    }
}
