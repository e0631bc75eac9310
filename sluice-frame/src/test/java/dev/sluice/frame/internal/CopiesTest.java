package dev.sluice.frame.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopiesTest {

    /** Every length around the word-copy limit, from each kind of source, at an odd offset, after other bytes. */
    @Test
    void appendsWhatWriteBytesWouldFromEveryKindOfBuffer() {
        for (int length = 0; length <= Copies.WORD_COPY_MAX + 9; length++) {
            for (ByteBuf src : sources(length + 3)) {
                ByteBuf expected = Unpooled.buffer().writeByte(0x7f);
                ByteBuf actual = PooledByteBufAllocator.DEFAULT.directBuffer(1).writeByte(0x7f);
                try {
                    expected.writeBytes(src, 3, length);
                    Copies.append(actual, src, 3, length);
                    assertThat(ByteBufUtil.hexDump(actual)).as("%d bytes from %s", length, src)
                        .isEqualTo(ByteBufUtil.hexDump(expected));
                    assertThat(src.readerIndex()).isZero();
                    assertThat(src.writerIndex()).isEqualTo(length + 3);
                } finally {
                    expected.release();
                    actual.release();
                    src.release();
                }
            }
        }
    }

    /** Every length around the word-copy limit from an array, at an odd offset, into heap and direct buffers. */
    @Test
    void appendsWhatWriteBytesWouldFromAnArray() {
        byte[] bytes = new byte[Copies.WORD_COPY_MAX + 12];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 37 + 11);
        }
        for (int length = 0; length <= Copies.WORD_COPY_MAX + 9; length++) {
            for (ByteBuf actual : List.of(Unpooled.buffer(1), PooledByteBufAllocator.DEFAULT.directBuffer(1))) {
                ByteBuf expected = Unpooled.buffer().writeByte(0x7f).writeBytes(bytes, 3, length);
                try {
                    Copies.append(actual.writeByte(0x7f), bytes, 3, length);
                    assertThat(ByteBufUtil.hexDump(actual)).as("%d bytes into %s", length, actual)
                        .isEqualTo(ByteBufUtil.hexDump(expected));
                } finally {
                    expected.release();
                    actual.release();
                }
            }
        }
    }

    @Test
    void aRegionOutsideTheArrayIsRefusedAndNothingIsWritten() {
        byte[] src = new byte[8];
        ByteBuf out = Unpooled.buffer();
        assertThatThrownBy(() -> Copies.append(out, src, 4, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Copies.append(out, src, -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Copies.append(out, src, 2, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void aRegionOutsideTheSourceIsRefusedAndNothingIsWritten() {
        ByteBuf src = Unpooled.buffer(8).writeZero(8);
        ByteBuf out = Unpooled.buffer();
        assertThatThrownBy(() -> Copies.append(out, src, 4, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Copies.append(out, src, -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void aReleasedSourceIsRefused() {
        ByteBuf src = Unpooled.directBuffer(8).writeZero(8);
        src.release();
        ByteBuf out = Unpooled.buffer();
        assertThatThrownBy(() -> Copies.append(out, src, 0, 4)).isInstanceOf(IllegalReferenceCountException.class);
    }

    private static List<ByteBuf> sources(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 37 + 11);
        }
        List<ByteBuf> sources = new ArrayList<>();
        sources.add(Unpooled.buffer(size).writeBytes(bytes));
        sources.add(Unpooled.directBuffer(size).writeBytes(bytes));
        sources.add(PooledByteBufAllocator.DEFAULT.directBuffer(size).writeBytes(bytes));
        sources.add(Unpooled.wrappedBuffer(bytes.clone()).asReadOnly());
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        int half = size / 2;
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 0, half).copy());
        composite.addComponent(true, Unpooled.directBuffer(size - half).writeBytes(bytes, half, size - half));
        sources.add(composite);
        return sources;
    }
}
