package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Fragmenter} with data that writes itself ({@link FrameData}): the frames are byte for byte those of the same
 * data in a buffer, whole or fragmented, and data that fails or lies about its length leaves no frame behind.
 */
class FragmenterFrameDataTest {

    private final TestBuffers bufs = new TestBuffers();
    private final CollectingSink sink = new CollectingSink(bufs.buffer());
    private final CollectingSink expected = new CollectingSink(bufs.buffer());

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    private ByteBuf bytes(int length, int seed) {
        return bufs.patterned(length, seed);
    }

    /** Data that appends a copy of {@code source}'s readable bytes, counting how often it was asked. */
    private static final class Copying extends FrameData {
        final ByteBuf source;
        int writes;

        Copying(ByteBuf source) {
            this.source = source;
        }

        @Override
        public int length() {
            return source.readableBytes();
        }

        @Override
        public void writeTo(ByteBuf out) {
            writes++;
            out.writeBytes(source, source.readerIndex(), source.readableBytes());
        }
    }

    @ParameterizedTest(name = "type 0x{0}, mtu {1}, metadata {2}, data {3}")
    @CsvSource({
        // whole frames
        "04, 0, 20, 4", "04, 0, -1, 140", "05, 64, -1, 10", "06, 0, 0, 0", "07, 1024, 40, 500", "0A, 0, 40, 4",
        // fragmented
        "04, 64, 100, 100", "06, 64, -1, 300", "07, 64, 10, 200", "0A, 100, 0, 1000", "0A, 64, 130, 0",
    })
    void framesAreThoseOfTheSameBytesInABuffer(String typeHex, int mtu, int mdLength, int dataLength) {
        int type = Integer.parseInt(typeHex, 16);
        int flags = type == FrameType.PAYLOAD ? FrameFlags.NEXT | FrameFlags.COMPLETE : 0;
        ByteBuf metadata = mdLength < 0 ? null : bytes(mdLength, 1);
        ByteBuf data = bytes(dataLength, 2);
        Copying writer = new Copying(data);

        Fragmenter.write(sink, mtu, type, 5, flags, 3, metadata, metadata == null ? 0 : metadata.readerIndex(),
                mdLength, writer);
        Fragmenter.write(expected, mtu, type, 5, flags, 3, metadata, data);

        assertThat(ByteBufUtil.hexDump(sink.buf)).isEqualTo(ByteBufUtil.hexDump(expected.buf));
        assertThat(sink.count()).isEqualTo(expected.count());
        for (int i = 0; i < sink.count(); i++) {
            assertThat(sink.sizeHint(i)).as("size hint of frame %d", i).isEqualTo(sink.length(i));
        }
        assertThat(writer.writes).as("asked once, whole or fragmented").isEqualTo(1);
        assertThat(data.readerIndex()).isEqualTo(1);
    }

    @Test
    void dataThatWritesOtherThanItsLengthIsRefusedAndItsFrameDropped() {
        FrameData shortOne = new FrameData() {
            @Override
            public int length() {
                return 10;
            }

            @Override
            public void writeTo(ByteBuf out) {
                out.writeZero(9);
            }
        };
        Fragmenter.write(sink, 0, FrameType.REQUEST_RESPONSE, 1, 0, 0, bytes(3, 1), 0, 0, new Copying(bytes(4, 2)));
        int before = sink.buf.writerIndex();

        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.REQUEST_RESPONSE, 3, 0, 0, null, 0, -1,
                shortOne))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("wrote 9 bytes after announcing 10");
        assertThat(sink.count()).isEqualTo(1);
        assertThat(sink.aborted()).isEqualTo(1);
        assertThat(sink.buf.writerIndex()).isEqualTo(before);

        // Fragmented, the data is written before any frame begins: nothing to drop.
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.REQUEST_RESPONSE, 3, 0, 0, null, 0, -1,
                new FrameData() {
                    @Override
                    public int length() {
                        return 100;
                    }

                    @Override
                    public void writeTo(ByteBuf out) {
                        out.writeZero(101);
                    }
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("wrote 101 bytes after announcing 100");
        assertThat(sink.count()).isEqualTo(1);
        assertThat(sink.aborted()).isEqualTo(1);
    }

    @Test
    void dataThatThrowsLeavesNoFrameAndItsExceptionPropagates() {
        IllegalArgumentException broken = new IllegalArgumentException("cannot serialize");
        FrameData failing = new FrameData() {
            @Override
            public int length() {
                return 8;
            }

            @Override
            public void writeTo(ByteBuf out) {
                out.writeInt(1);
                throw broken;
            }
        };

        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.PAYLOAD, 1, FrameFlags.NEXT, 0,
                bytes(5, 1), 1, 5, failing)).isSameAs(broken);
        assertThat(sink.count()).isZero();
        assertThat(sink.aborted()).isEqualTo(1);
        assertThat(sink.buf.writerIndex()).isZero();
    }

    @Test
    void badArgumentsAreRefusedBeforeTheFrameBegins() {
        Copying data = new Copying(bytes(4, 1));
        ByteBuf metadata = bytes(10, 2);
        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.REQUEST_RESPONSE, 1, 0, 0, metadata, 5, 10,
                data)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metadata");
        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.REQUEST_RESPONSE, 0, 0, 0, null, 0, -1, data))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fragmenter.write(sink, 63, FrameType.REQUEST_RESPONSE, 1, 0, 0, null, 0, -1, data))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mtu");
        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.REQUEST_RESPONSE, 1, 0, 0, null, 0, -1,
                new FrameData() {
                    @Override
                    public int length() {
                        return -1;
                    }

                    @Override
                    public void writeTo(ByteBuf out) {
                    }
                })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data length < 0");
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.PAYLOAD, 1, FrameFlags.COMPLETE, 0, null, 0,
                -1, new Copying(bytes(100, 3)))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without NEXT");
        assertThat(sink.count()).isZero();
        assertThat(sink.aborted()).isZero();
        assertThat(data.writes).isZero();
    }
}
