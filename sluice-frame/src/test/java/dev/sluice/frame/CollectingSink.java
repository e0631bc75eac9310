package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FrameSink} that writes every frame into one buffer, back to back without length prefixes, and notes
 * where each starts, how long it is and the size hint it was begun with. Checks that begin and end alternate.
 */
final class CollectingSink implements FrameSink {

    final ByteBuf buf;
    private final List<int[]> frames = new ArrayList<>();
    private int start = -1;
    private int hint;
    private int aborted;

    /** Collects into {@code buf}, which the caller owns and releases. */
    CollectingSink(ByteBuf buf) {
        this.buf = buf;
    }

    @Override
    public ByteBuf begin(int sizeHint) {
        assertThat(start).as("begin while a frame is open").isEqualTo(-1);
        start = buf.writerIndex();
        hint = sizeHint;
        return buf;
    }

    @Override
    public void end() {
        assertThat(start).as("end without begin").isNotEqualTo(-1);
        frames.add(new int[] {start, buf.writerIndex() - start, hint});
        start = -1;
    }

    @Override
    public void abort() {
        assertThat(start).as("abort without begin").isNotEqualTo(-1);
        buf.writerIndex(start);
        start = -1;
        aborted++;
    }

    /** Frames dropped by {@link #abort} so far. */
    int aborted() {
        return aborted;
    }

    /** Frames written so far. */
    int count() {
        return frames.size();
    }

    /** Absolute index of frame {@code i}'s first byte in {@link #buf}. */
    int offset(int i) {
        return frames.get(i)[0];
    }

    /** Length of frame {@code i}. */
    int length(int i) {
        return frames.get(i)[1];
    }

    /** The size hint frame {@code i} was begun with. */
    int sizeHint(int i) {
        return frames.get(i)[2];
    }

    /** The frame type of frame {@code i}. */
    int type(int i) {
        return FrameHeader.frameType(buf, offset(i));
    }

    /** The flags of frame {@code i}. */
    int flags(int i) {
        return FrameHeader.flags(buf, offset(i));
    }
}
