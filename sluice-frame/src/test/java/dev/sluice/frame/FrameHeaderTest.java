package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameHeaderTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void encodesStreamIdThenTypeShiftedOverTenFlagBits() {
        ByteBuf out = bufs.buffer();
        assertThat(FrameHeader.encode(out, 0x01020304, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE))
                .isEqualTo(FrameHeader.SIZE);
        // 0x0A << 10 | 0x060 = 0x2860
        assertThat(TestBuffers.readable(out)).containsExactly(TestBuffers.b(0x01, 0x02, 0x03, 0x04, 0x28, 0x60));
    }

    @Test
    void readsEveryFieldAtAnOffsetWithoutMovingIndexes() {
        ByteBuf buf = bufs.prefixed();
        FrameHeader.encode(buf, Integer.MAX_VALUE, FrameType.EXT, FrameFlags.MASK);
        int off = TestBuffers.PREFIX.length;
        int readerIndex = buf.readerIndex();
        int writerIndex = buf.writerIndex();

        assertThat(FrameHeader.streamId(buf, off)).isEqualTo(Integer.MAX_VALUE);
        assertThat(FrameHeader.frameType(buf, off)).isEqualTo(FrameType.EXT);
        assertThat(FrameHeader.flags(buf, off)).isEqualTo(0x3FF);
        assertThat(FrameHeader.hasFlag(buf, off, FrameFlags.IGNORE | FrameFlags.NEXT)).isTrue();
        assertThat(buf.readerIndex()).isEqualTo(readerIndex);
        assertThat(buf.writerIndex()).isEqualTo(writerIndex);
    }

    @Test
    void streamIdMasksTheReservedTopBit() {
        ByteBuf buf = bufs.of(0x80, 0x00, 0x00, 0x05, 0x24, 0x00);
        assertThat(FrameHeader.streamId(buf, 0)).isEqualTo(5);
        assertThat(FrameHeader.frameType(buf, 0)).isEqualTo(FrameType.CANCEL);
    }

    @Test
    void hasFlagNeedsEveryBitOfTheMask() {
        ByteBuf buf = bufs.buffer();
        FrameHeader.encode(buf, 1, FrameType.PAYLOAD, FrameFlags.NEXT);
        assertThat(FrameHeader.hasFlag(buf, 0, FrameFlags.NEXT)).isTrue();
        assertThat(FrameHeader.hasFlag(buf, 0, FrameFlags.NEXT | FrameFlags.COMPLETE)).isFalse();
        assertThat(FrameHeader.hasFlag(buf, 0, FrameFlags.COMPLETE)).isFalse();
    }

    @Test
    void refusesValuesThatDoNotFitTheirFieldAndWritesNothing() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> FrameHeader.encode(out, -1, FrameType.CANCEL, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("streamId < 0: -1");
        assertThatThrownBy(() -> FrameHeader.encode(out, 1, 0x40, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("frameType outside 0..63: 64");
        assertThatThrownBy(() -> FrameHeader.encode(out, 1, FrameType.CANCEL, 0x400))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("flags outside mask 0x3ff: 0x400");
        assertThat(out.writerIndex()).isZero();
    }
}
