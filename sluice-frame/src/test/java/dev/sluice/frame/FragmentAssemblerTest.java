package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link FragmentAssembler}: what {@link Fragmenter} splits, it joins back byte for byte; the size bound; who
 * releases what. The leak gate fails any test here that leaves a reference behind.
 */
class FragmentAssemblerTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    private ByteBuf bytes(int length, int seed) {
        ByteBuf b = bufs.buffer(length);
        for (int i = 0; i < length; i++) {
            b.writeByte(seed + i * 13);
        }
        return b;
    }

    /** Adds fragment {@code i} of {@code sink} to {@code assembler}, as a receiver would from the frame. */
    private static String addFragment(FragmentAssembler assembler, CollectingSink sink, int i) {
        ByteBuf buf = sink.buf;
        int off = sink.offset(i);
        int len = sink.length(i);
        int start = PayloadBearingLayout.payloadStart(sink.type(i));
        return assembler.add(ALLOC, buf, PayloadSection.metadataOffset(buf, off, start),
                PayloadSection.metadataLength(buf, off, len, start), PayloadSection.dataOffset(buf, off, len, start),
                PayloadSection.dataLength(buf, off, len, start));
    }

    @ParameterizedTest(name = "type 0x{0}, mtu {1}, metadata {2}, data {3}")
    @CsvSource(textBlock = """
        # type, mtu, metadata (-1 = none), data
        04,     64,  -1,   1000
        04,     64,  0,    1000
        05,     64,  1000, 0
        06,     64,  52,   52
        07,     100, 333,  4444
        0A,     64,  1,    100
        0A,     64,  5000, 70000
        """)
    void whatTheFragmenterSplitsJoinsBackByteIdentical(String typeHex, int mtu, int mdLength, int dataLength) {
        ByteBuf md = mdLength < 0 ? null : bytes(mdLength, 1);
        ByteBuf data = bytes(dataLength, 2);
        CollectingSink sink = new CollectingSink(bufs.buffer());
        Fragmenter.write(sink, mtu, Integer.parseInt(typeHex, 16), 3, FrameFlags.NEXT, 8, md, data);
        assertThat(sink.count()).isGreaterThan(1);

        FragmentAssembler assembler = new FragmentAssembler(Integer.MAX_VALUE);
        for (int i = 0; i < sink.count(); i++) {
            assertThat(addFragment(assembler, sink, i)).isNull();
        }
        ByteBuf joinedMetadata = assembler.takeMetadata();
        ByteBuf joinedData = assembler.takeData();
        try {
            assertThat(assembler.size()).isEqualTo(Math.max(mdLength, 0) + dataLength);
            if (md == null) {
                assertThat(joinedMetadata).isNull();
            } else {
                assertThat(TestBuffers.readable(joinedMetadata)).isEqualTo(TestBuffers.readable(md));
            }
            assertThat(TestBuffers.readable(joinedData)).isEqualTo(TestBuffers.readable(data));
        } finally {
            releaseAll(joinedMetadata, joinedData);
        }
    }

    @Test
    void metadataAbsentEmptyAndPresentStayDistinct() {
        ByteBuf frame = bytes(10, 3);
        FragmentAssembler absent = new FragmentAssembler(100);
        absent.add(ALLOC, frame, 0, -1, 0, 4);
        absent.add(ALLOC, frame, 0, -1, 4, 4);
        assertThat(absent.takeMetadata()).isNull();

        FragmentAssembler empty = new FragmentAssembler(100);
        empty.add(ALLOC, frame, 0, 0, 0, 4);
        empty.add(ALLOC, frame, 0, -1, 4, 0);
        ByteBuf emptyMetadata = empty.takeMetadata();
        assertThat(emptyMetadata).isNotNull();
        assertThat(emptyMetadata.readableBytes()).isZero();

        FragmentAssembler neither = new FragmentAssembler(100);
        neither.add(ALLOC, frame, 0, -1, 0, 0);
        assertThat(neither.takeData()).as("no data is null, not an empty buffer").isNull();

        releaseAll(emptyMetadata);
        absent.release();
        empty.release();
        neither.release();
    }

    @Test
    void theBoundAdmitsExactlyMaxBytesAndRefusesTheFragmentThatGoesPast() {
        ByteBuf frame = bytes(100, 4);
        FragmentAssembler assembler = new FragmentAssembler(100);
        assertThat(assembler.add(ALLOC, frame, 0, 30, 30, 30)).isNull();
        assertThat(assembler.add(ALLOC, frame, 60, -1, 60, 40)).isNull();
        assertThat(assembler.size()).isEqualTo(100);

        assertThat(assembler.add(ALLOC, frame, 0, 1, 1, 0))
                .isEqualTo("reassembled payload exceeds maxInboundPayloadSize: 101 > 100 bytes");
        assertThat(assembler.size()).as("nothing of the refused fragment kept").isEqualTo(100);
        assertThat(frame.refCnt()).as("the frame and one slice per component").isEqualTo(1 + 3);

        FragmentAssembler nothingAllowed = new FragmentAssembler(0);
        assertThat(nothingAllowed.add(ALLOC, frame, 0, 0, 0, 0)).as("empty metadata costs no bytes").isNull();
        assertThat(nothingAllowed.add(ALLOC, frame, 0, -1, 0, 1))
                .isEqualTo("reassembled payload exceeds maxInboundPayloadSize: 1 > 0 bytes");
        nothingAllowed.release();
        assertThatThrownBy(() -> new FragmentAssembler(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBytes < 0: -1");

        assembler.release();
        assertThat(frame.refCnt()).isEqualTo(1);
    }

    @Test
    void theReceivedFrameMayBeReleasedOnceAdded() {
        ByteBuf frame = ALLOC.buffer(8).writeBytes(TestBuffers.b(1, 2, 3, 4, 5, 6, 7, 8));
        FragmentAssembler assembler = new FragmentAssembler(100);
        assembler.add(ALLOC, frame, 0, 2, 2, 6);
        frame.release(); // the transport is done with it; the assembler's slices keep the bytes alive

        ByteBuf metadata = assembler.takeMetadata();
        ByteBuf data = assembler.takeData();
        assertThat(TestBuffers.readable(metadata)).containsExactly(1, 2);
        assertThat(TestBuffers.readable(data)).containsExactly(3, 4, 5, 6, 7, 8);

        assembler.release(); // holds nothing now: what was taken is the caller's
        assertThat(frame.refCnt()).isEqualTo(2);
        releaseAll(metadata, data);
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    void releaseDropsWhatIsHeldAndMayBeRepeated() {
        ByteBuf frame = bytes(20, 5);
        FragmentAssembler assembler = new FragmentAssembler(100);
        assembler.add(ALLOC, frame, 0, 5, 5, 15);
        assertThat(frame.refCnt()).isEqualTo(3);

        assembler.release();
        assembler.release();

        assertThat(frame.refCnt()).isEqualTo(1);
        assertThat(assembler.takeMetadata()).isNull();
        assertThat(assembler.takeData()).isNull();
    }

    private static void releaseAll(ByteBuf... buffers) {
        for (ByteBuf b : buffers) {
            if (b != null) {
                b.release();
            }
        }
    }
}
