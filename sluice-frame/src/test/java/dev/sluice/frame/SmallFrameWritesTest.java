package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A whole frame written into a direct buffer goes by address when its metadata and data are short (at most 32
 * bytes each) and readable by address, and through Netty's checked setters otherwise, as into a heap buffer: the
 * two must write the same bytes, for every payload-bearing type, metadata and data length, and kind of source
 * buffer; and a released source must still fail as Netty fails it, the frame it was to be part of dropped whole
 * (the header it had written no longer left in the buffer, where the next frame would have followed it).
 */
class SmallFrameWritesTest {

    private static final int N = FrameFlags.NEXT;
    private static final int C = FrameFlags.COMPLETE;

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    /** The kinds of buffer a payload's metadata or data may be, each holding {@code length} patterned bytes. */
    private List<IntFunction<ByteBuf>> sources(int seed) {
        List<IntFunction<ByteBuf>> kinds = new ArrayList<>();
        kinds.add(length -> bufs.patterned(length, seed));
        kinds.add(length -> bufs.track(ByteBufAllocator.DEFAULT.heapBuffer(length + 1).writeByte(1).skipBytes(1)
            .writeBytes(bufs.patterned(length, seed))));
        kinds.add(length -> Unpooled.unreleasableBuffer(bufs.patterned(length, seed)));
        kinds.add(length -> {
            CompositeByteBuf c = bufs.track(ByteBufAllocator.DEFAULT.compositeDirectBuffer());
            ByteBuf part = bufs.patterned(length, seed);
            c.addComponent(true, part.retain());
            return c;
        });
        return kinds;
    }

    @Test
    void byAddressAndCheckedWriteTheSameBytes() {
        int[][] typesAndFlags = {
            {FrameType.REQUEST_RESPONSE, 0}, {FrameType.REQUEST_FNF, 0}, {FrameType.REQUEST_STREAM, 0},
            {FrameType.REQUEST_CHANNEL, C}, {FrameType.PAYLOAD, N | C}, {FrameType.PAYLOAD, N}};
        int[] metadataLengths = {-1, 0, 1, 5, 8, 31, 32, 33, 100};
        int[] dataLengths = {0, 1, 4, 7, 8, 12, 32, 33, 140};
        int frames = 0;
        for (int[] tf : typesAndFlags) {
            for (int ml : metadataLengths) {
                for (int dl : dataLengths) {
                    for (IntFunction<ByteBuf> metadataKind : sources(3)) {
                        for (IntFunction<ByteBuf> dataKind : sources(11)) {
                            ByteBuf metadata = ml < 0 ? null : metadataKind.apply(ml);
                            ByteBuf data = dataKind.apply(dl);
                            byte[] direct = written(bufs.track(ByteBufAllocator.DEFAULT.directBuffer()), tf, metadata,
                                data);
                            byte[] heap = written(bufs.track(ByteBufAllocator.DEFAULT.heapBuffer()), tf, metadata,
                                data);
                            assertThat(direct).as("type %s flags %s, metadata %s, data %s",
                                FrameType.name(tf[0]), tf[1], ml, dl).isEqualTo(heap);
                            assertThat(data.readableBytes()).as("the source's indexes are left alone").isEqualTo(dl);
                            frames++;
                        }
                    }
                }
            }
        }
        assertThat(frames).isEqualTo(6 * 9 * 9 * 4 * 4);
    }

    @Test
    void aReleasedSourceFailsAsNettyFailsItAndLeavesNothingBehind() {
        for (int mtu : new int[] {0, 64}) {
            for (int length : new int[] {4, 40, 200}) {
                ByteBuf out = bufs.track(ByteBufAllocator.DEFAULT.directBuffer());
                out.writeBytes(new byte[] {1, 2, 3});
                ByteBuf data = ByteBufAllocator.DEFAULT.directBuffer(length).writeZero(length);
                data.release();
                CollectingSink sink = new CollectingSink(out);

                assertThatThrownBy(() -> Fragmenter.write(sink, mtu, FrameType.REQUEST_RESPONSE, 1, 0, 0, null, data))
                    .as("mtu %s, %s bytes", mtu, length)
                    .isInstanceOf(IllegalReferenceCountException.class);
                assertThat(out.writerIndex()).as("mtu %s, %s bytes: the frame dropped whole", mtu, length)
                    .isEqualTo(3);
                assertThat(sink.aborted()).isEqualTo(1);
            }
        }
    }

    @Test
    void aBufferWithoutRoomForTheFrameIsNeverWrittenPastItsEnd() {
        // An 8-byte window onto a larger buffer: a store past the window would land in the bytes behind it.
        ByteBuf whole = bufs.track(ByteBufAllocator.DEFAULT.directBuffer(16)).writeBytes(new byte[16]);
        ByteBuf window = whole.slice(0, 8).writerIndex(0);
        ByteBuf data = bufs.patterned(4, 1);

        assertThatThrownBy(() -> PayloadBearingLayout.writeChecked(window, 1, FrameType.REQUEST_RESPONSE, 0, 0,
            null, 0, -1, data, data.readerIndex(), 4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(TestBuffers.bytes(whole, 8, 8)).as("the bytes behind the window").isEqualTo(new byte[8]);
    }

    private static byte[] written(ByteBuf out, int[] typeAndFlags, ByteBuf metadata, ByteBuf data) {
        out.writeByte(0x77); // frames start past the buffer's first byte
        Fragmenter.write(new CollectingSink(out), 0, typeAndFlags[0], 5, typeAndFlags[1], 9, metadata, data);
        byte[] bytes = new byte[out.readableBytes() - 1];
        out.getBytes(1, bytes);
        return bytes;
    }
}
