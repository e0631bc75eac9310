package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Fragmenter}: where fragments break, which flags each carries, and that nothing is lost or reordered. */
class FragmenterTest {

    private static final int F = FrameFlags.FOLLOWS;
    private static final int M = FrameFlags.METADATA;
    private static final int C = FrameFlags.COMPLETE;
    private static final int N = FrameFlags.NEXT;

    private final TestBuffers bufs = new TestBuffers();
    private final CollectingSink sink = new CollectingSink(bufs.buffer());

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    private ByteBuf bytes(int length, int seed) {
        return bufs.patterned(length, seed);
    }

    private int metadataLength(int i) {
        return PayloadSection.metadataLength(sink.buf, sink.offset(i), sink.length(i),
                PayloadBearingLayout.payloadStart(sink.type(i)));
    }

    private int dataLength(int i) {
        return PayloadSection.dataLength(sink.buf, sink.offset(i), sink.length(i),
                PayloadBearingLayout.payloadStart(sink.type(i)));
    }

    @Test
    void aFrameThatFitsWithItsLengthPrefixIsWrittenWhole() {
        // 6 + 3 + 2 + 50 = 61 bytes, + 3 = 64: fits exactly.
        Fragmenter.write(sink, 64, FrameType.REQUEST_RESPONSE, 1, 0, 0, bytes(2, 1), bytes(50, 2));
        assertThat(sink.count()).isEqualTo(1);
        assertThat(sink.length(0)).isEqualTo(61);
        assertThat(sink.flags(0)).isEqualTo(M);

        // One byte more does not.
        Fragmenter.write(sink, 64, FrameType.REQUEST_RESPONSE, 3, 0, 0, bytes(2, 1), bytes(51, 2));
        assertThat(sink.count()).isEqualTo(3);
        assertThat(sink.flags(1)).isEqualTo(M | F);
        assertThat(sink.flags(2)).isEqualTo(N);
        assertThat(dataLength(2)).isEqualTo(1);
    }

    @Test
    void anMtuOfZeroNeverFragments() {
        Fragmenter.write(sink, 0, FrameType.PAYLOAD, 1, N | C, 0, bytes(1000, 1), bytes(100_000, 2));
        assertThat(sink.count()).isEqualTo(1);
        assertThat(sink.flags(0)).isEqualTo(M | N | C);
        assertThat(sink.length(0)).isEqualTo(6 + 3 + 1000 + 100_000);
    }

    @Test
    void metadataSpansFragmentsAndDataStartsWhereItEnds() {
        // The example of Fragmenter's Javadoc.
        Fragmenter.write(sink, 64, FrameType.REQUEST_RESPONSE, 1, 0, 0, bytes(100, 1), bytes(100, 2));

        assertThat(sink.count()).isEqualTo(4);
        int[][] expected = {
            // type,                     flags,      metadata, data, frame length
            {FrameType.REQUEST_RESPONSE, M | F,      52,       0,    61},
            {FrameType.PAYLOAD,          M | F | N,  48,       4,    61},
            {FrameType.PAYLOAD,          F | N,      -1,       55,   61},
            {FrameType.PAYLOAD,          N,          -1,       41,   47},
        };
        for (int i = 0; i < expected.length; i++) {
            assertThat(new int[] {sink.type(i), sink.flags(i), metadataLength(i), dataLength(i), sink.length(i)})
                    .as("fragment %d", i).containsExactly(expected[i]);
            assertThat(sink.sizeHint(i)).as("size hint of fragment %d", i).isEqualTo(sink.length(i));
        }
    }

    @Test
    void completeMovesToTheLastFragmentAndFollowOnsAreNext() {
        Fragmenter.write(sink, 64, FrameType.REQUEST_CHANNEL, 5, C, 9, null, bytes(120, 1));
        assertThat(sink.count()).isEqualTo(3);
        assertThat(sink.type(0)).isEqualTo(FrameType.REQUEST_CHANNEL);
        assertThat(sink.flags(0)).isEqualTo(F);
        assertThat(RequestChannelFrame.initialRequestN(sink.buf, sink.offset(0))).isEqualTo(9);
        assertThat(sink.flags(1)).isEqualTo(F | N);
        assertThat(sink.flags(2)).isEqualTo(N | C);

        Fragmenter.write(sink, 64, FrameType.PAYLOAD, 5, N | C, 0, null, bytes(120, 1));
        assertThat(sink.count()).isEqualTo(6);
        assertThat(sink.flags(3)).isEqualTo(N | F);
        assertThat(sink.flags(4)).isEqualTo(N | F);
        assertThat(sink.flags(5)).isEqualTo(N | C);
    }

    @Test
    void flagsATypeDoesNotDefineAreIgnored() {
        Fragmenter.write(sink, 64, FrameType.REQUEST_STREAM, 7, C | N | F | M | FrameFlags.IGNORE, 3, null,
                bytes(100, 1));
        assertThat(sink.count()).isEqualTo(2);
        assertThat(sink.flags(0)).isEqualTo(F);
        assertThat(sink.flags(1)).isEqualTo(N);
        assertThat(RequestStreamFrame.initialRequestN(sink.buf, sink.offset(0))).isEqualTo(3);
    }

    @Test
    void emptyMetadataIsMarkedOnTheFirstFragmentOnlyAndNoMetadataOnNone() {
        Fragmenter.write(sink, 64, FrameType.REQUEST_FNF, 1, 0, 0, bytes(0, 1), bytes(100, 1));
        assertThat(sink.count()).isEqualTo(2);
        assertThat(metadataLength(0)).isZero();
        assertThat(metadataLength(1)).isEqualTo(-1);

        Fragmenter.write(sink, 64, FrameType.REQUEST_FNF, 1, 0, 0, null, bytes(100, 1));
        assertThat(sink.count()).isEqualTo(4);
        assertThat(metadataLength(2)).isEqualTo(-1);
        assertThat(metadataLength(3)).isEqualTo(-1);
    }

    @ParameterizedTest(name = "type 0x{0}, mtu {1}, metadata {2}, data {3}")
    @CsvSource(textBlock = """
        # type, mtu, metadata (-1 = none), data
        04,     64,  -1,   0
        04,     64,  -1,   500
        04,     64,  0,    55
        04,     64,  52,   0
        04,     64,  53,   1
        05,     64,  200,  200
        06,     64,  48,   48
        06,     100, 1,    1000
        07,     64,  300,  7
        0A,     64,  52,   3
        0A,     77,  999,  999
        07,     0,   300,  7
        """)
    void fragmentsJoinBackIntoThePayloadAndAllButTheLastFillTheMtu(String typeHex, int mtu, int mdLength,
            int dataLength) {
        int type = Integer.parseInt(typeHex, 16);
        ByteBuf md = mdLength < 0 ? null : bytes(mdLength, 3);
        ByteBuf data = bytes(dataLength, 5);

        Fragmenter.write(sink, mtu, type, 9, N, 1, md, data);

        ByteArrayOutputStream joinedMetadata = new ByteArrayOutputStream();
        ByteArrayOutputStream joinedData = new ByteArrayOutputStream();
        for (int i = 0; i < sink.count(); i++) {
            int off = sink.offset(i);
            int len = sink.length(i);
            assertThat(FrameValidator.validate(sink.buf, off, len)).as("fragment %d", i).isNull();
            assertThat(sink.type(i)).isEqualTo(i == 0 ? type : FrameType.PAYLOAD);
            boolean last = i == sink.count() - 1;
            assertThat((sink.flags(i) & F) != 0).as("F on fragment %d", i).isEqualTo(!last);
            if (mtu > 0) {
                assertThat(len + 3).as("fragment %d with its length prefix", i).isLessThanOrEqualTo(mtu);
                if (!last) {
                    assertThat(len + 3).as("fragment %d is filled", i).isEqualTo(mtu);
                }
            }
            int start = PayloadBearingLayout.payloadStart(sink.type(i));
            int fragmentMetadata = PayloadSection.metadataLength(sink.buf, off, len, start);
            if (fragmentMetadata >= 0) {
                joinedMetadata.writeBytes(TestBuffers.bytes(sink.buf, PayloadSection.metadataOffset(sink.buf, off,
                        start), fragmentMetadata));
            }
            joinedData.writeBytes(TestBuffers.bytes(sink.buf, PayloadSection.dataOffset(sink.buf, off, len, start),
                    PayloadSection.dataLength(sink.buf, off, len, start)));
        }
        assertThat(joinedMetadata.toByteArray()).isEqualTo(TestBuffers.readable(md));
        assertThat(joinedData.toByteArray()).isEqualTo(TestBuffers.readable(data));
        assertThat(metadataLength(0) >= 0).as("M on the first fragment").isEqualTo(md != null);
        // Borrowed: nothing moved or released.
        assertThat(data.readerIndex()).isEqualTo(1);
        assertThat(data.refCnt()).isEqualTo(1);
    }

    @Test
    void badArgumentsAreRefusedBeforeTheFirstFrameBegins() {
        ByteBuf data = bytes(200, 1);
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.CANCEL, 1, 0, 0, null, data))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a request or PAYLOAD frame type: CANCEL");
        assertThatThrownBy(() -> Fragmenter.write(sink, 63, FrameType.PAYLOAD, 1, N, 0, null, data))
                .hasMessage("mtu outside 0 or 64..16777218: 63");
        assertThatThrownBy(() -> Fragmenter.write(sink, -1, FrameType.PAYLOAD, 1, N, 0, null, data))
                .hasMessage("mtu outside 0 or 64..16777218: -1");
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.REQUEST_FNF, 0, 0, 0, null, data))
                .hasMessage("REQUEST_FNF needs streamId > 0: 0");
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.REQUEST_STREAM, 1, 0, 0, null, data))
                .hasMessage("initialRequestN < 1: 0");
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.PAYLOAD, 1, F, 0, null, data))
                .hasMessage("PAYLOAD with neither NEXT nor COMPLETE on stream 1");
        assertThatThrownBy(() -> Fragmenter.write(sink, 64, FrameType.PAYLOAD, 3, C, 0, null, data))
                .hasMessage("PAYLOAD without NEXT needs fragments on stream 3: frame length 206 > mtu 64 less the"
                        + " length prefix");
        ByteBuf huge = bufs.buffer(FrameHeader.MAX_FRAME_LENGTH);
        huge.writerIndex(FrameHeader.MAX_FRAME_LENGTH);
        assertThatThrownBy(() -> Fragmenter.write(sink, 0, FrameType.PAYLOAD, 1, N, 0, null, huge))
                .hasMessage("PAYLOAD frame length 16777221 exceeds 16777215; fragment the payload");

        assertThat(sink.count()).isZero();
        assertThat(sink.buf.writerIndex()).isZero();
    }
}
