package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Round trips of the frames that carry metadata and data (REQUEST_RESPONSE, REQUEST_FNF, REQUEST_STREAM,
 * REQUEST_CHANNEL, PAYLOAD, EXT) over every flag combination they define, with metadata absent, empty and present
 * and data null, empty and present, read back at a non-zero offset with each class's own readers.
 */
class PayloadFramesTest {

    private static final int STREAM_ID = 7;
    private static final long DEMAND = 5;
    private static final int EXTENDED_TYPE = 9;

    /** The six frame types under test, each with its own encoder and readers. */
    enum Kind {
        REQUEST_RESPONSE(FrameType.REQUEST_RESPONSE, 6),
        REQUEST_FNF(FrameType.REQUEST_FNF, 6),
        REQUEST_STREAM(FrameType.REQUEST_STREAM, 10),
        REQUEST_CHANNEL(FrameType.REQUEST_CHANNEL, 10),
        PAYLOAD(FrameType.PAYLOAD, 6),
        EXT(FrameType.EXT, 10);

        final int type;
        final int payloadStart;

        Kind(int type, int payloadStart) {
            this.type = type;
            this.payloadStart = payloadStart;
        }

        /** Encodes with the buffer form; {@code f1} is F (I for EXT), {@code c} is C, {@code n} is N. */
        int encode(ByteBuf out, boolean f1, boolean c, boolean n, ByteBuf md, ByteBuf data) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.encode(out, STREAM_ID, f1, md, data);
                case REQUEST_FNF:
                    return RequestFnfFrame.encode(out, STREAM_ID, f1, md, data);
                case REQUEST_STREAM:
                    return RequestStreamFrame.encode(out, STREAM_ID, f1, DEMAND, md, data);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.encode(out, STREAM_ID, f1, c, DEMAND, md, data);
                case PAYLOAD:
                    return PayloadFrame.encode(out, STREAM_ID, f1, c, n, md, data);
                default:
                    return ExtFrame.encode(out, STREAM_ID, f1, EXTENDED_TYPE, md, data);
            }
        }

        /** Encodes with the range form (EXT has none: it falls back to slices). */
        int encodeRange(ByteBuf out, boolean f1, boolean c, boolean n, ByteBuf md, int mdIndex, int mdLength,
                ByteBuf data, int dataIndex, int dataLength) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.encode(out, STREAM_ID, f1, md, mdIndex, mdLength, data, dataIndex,
                            dataLength);
                case REQUEST_FNF:
                    return RequestFnfFrame.encode(out, STREAM_ID, f1, md, mdIndex, mdLength, data, dataIndex,
                            dataLength);
                case REQUEST_STREAM:
                    return RequestStreamFrame.encode(out, STREAM_ID, f1, DEMAND, md, mdIndex, mdLength, data,
                            dataIndex, dataLength);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.encode(out, STREAM_ID, f1, c, DEMAND, md, mdIndex, mdLength, data,
                            dataIndex, dataLength);
                case PAYLOAD:
                    return PayloadFrame.encode(out, STREAM_ID, f1, c, n, md, mdIndex, mdLength, data, dataIndex,
                            dataLength);
                default:
                    throw new UnsupportedOperationException("EXT has no range form");
            }
        }

        /** Every {@code encodedLength} overload for these arguments; they must all agree. */
        List<Integer> encodedLengths(boolean f1, boolean c, boolean n, ByteBuf md, ByteBuf data) {
            int mdLength = md == null ? -1 : md.readableBytes();
            int dataLength = data == null ? 0 : data.readableBytes();
            List<Integer> all = new ArrayList<>();
            switch (this) {
                case REQUEST_RESPONSE:
                    all.add(RequestResponseFrame.encodedLength(STREAM_ID, f1, md, data));
                    all.add(RequestResponseFrame.encodedLength(md, data));
                    all.add(RequestResponseFrame.encodedLength(STREAM_ID, f1, md, 0, mdLength, data, 0, dataLength));
                    all.add(RequestResponseFrame.encodedLength(mdLength, dataLength));
                    break;
                case REQUEST_FNF:
                    all.add(RequestFnfFrame.encodedLength(STREAM_ID, f1, md, data));
                    all.add(RequestFnfFrame.encodedLength(md, data));
                    all.add(RequestFnfFrame.encodedLength(STREAM_ID, f1, md, 0, mdLength, data, 0, dataLength));
                    all.add(RequestFnfFrame.encodedLength(mdLength, dataLength));
                    break;
                case REQUEST_STREAM:
                    all.add(RequestStreamFrame.encodedLength(STREAM_ID, f1, DEMAND, md, data));
                    all.add(RequestStreamFrame.encodedLength(md, data));
                    all.add(RequestStreamFrame.encodedLength(STREAM_ID, f1, DEMAND, md, 0, mdLength, data, 0,
                            dataLength));
                    all.add(RequestStreamFrame.encodedLength(mdLength, dataLength));
                    break;
                case REQUEST_CHANNEL:
                    all.add(RequestChannelFrame.encodedLength(STREAM_ID, f1, c, DEMAND, md, data));
                    all.add(RequestChannelFrame.encodedLength(md, data));
                    all.add(RequestChannelFrame.encodedLength(STREAM_ID, f1, c, DEMAND, md, 0, mdLength, data, 0,
                            dataLength));
                    all.add(RequestChannelFrame.encodedLength(mdLength, dataLength));
                    break;
                case PAYLOAD:
                    all.add(PayloadFrame.encodedLength(STREAM_ID, f1, c, n, md, data));
                    all.add(PayloadFrame.encodedLength(md, data));
                    all.add(PayloadFrame.encodedLength(STREAM_ID, f1, c, n, md, 0, mdLength, data, 0, dataLength));
                    all.add(PayloadFrame.encodedLength(mdLength, dataLength));
                    break;
                default:
                    all.add(ExtFrame.encodedLength(STREAM_ID, f1, EXTENDED_TYPE, md, data));
                    break;
            }
            return all;
        }

        int metadataLength(ByteBuf buf, int off, int len) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.metadataLength(buf, off, len);
                case REQUEST_FNF:
                    return RequestFnfFrame.metadataLength(buf, off, len);
                case REQUEST_STREAM:
                    return RequestStreamFrame.metadataLength(buf, off, len);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.metadataLength(buf, off, len);
                case PAYLOAD:
                    return PayloadFrame.metadataLength(buf, off, len);
                default:
                    return ExtFrame.metadataLength(buf, off, len);
            }
        }

        int metadataOffset(ByteBuf buf, int off) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.metadataOffset(buf, off);
                case REQUEST_FNF:
                    return RequestFnfFrame.metadataOffset(buf, off);
                case REQUEST_STREAM:
                    return RequestStreamFrame.metadataOffset(buf, off);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.metadataOffset(buf, off);
                case PAYLOAD:
                    return PayloadFrame.metadataOffset(buf, off);
                default:
                    return ExtFrame.metadataOffset(buf, off);
            }
        }

        int dataOffset(ByteBuf buf, int off, int len) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.dataOffset(buf, off, len);
                case REQUEST_FNF:
                    return RequestFnfFrame.dataOffset(buf, off, len);
                case REQUEST_STREAM:
                    return RequestStreamFrame.dataOffset(buf, off, len);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.dataOffset(buf, off, len);
                case PAYLOAD:
                    return PayloadFrame.dataOffset(buf, off, len);
                default:
                    return ExtFrame.dataOffset(buf, off, len);
            }
        }

        int dataLength(ByteBuf buf, int off, int len) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return RequestResponseFrame.dataLength(buf, off, len);
                case REQUEST_FNF:
                    return RequestFnfFrame.dataLength(buf, off, len);
                case REQUEST_STREAM:
                    return RequestStreamFrame.dataLength(buf, off, len);
                case REQUEST_CHANNEL:
                    return RequestChannelFrame.dataLength(buf, off, len);
                case PAYLOAD:
                    return PayloadFrame.dataLength(buf, off, len);
                default:
                    return ExtFrame.dataLength(buf, off, len);
            }
        }

        /** The flags this kind defines, as booleans read back: {F or I, C, N}. */
        boolean[] flagsRead(ByteBuf buf, int off) {
            switch (this) {
                case REQUEST_RESPONSE:
                    return new boolean[] {RequestResponseFrame.follows(buf, off), false, false};
                case REQUEST_FNF:
                    return new boolean[] {RequestFnfFrame.follows(buf, off), false, false};
                case REQUEST_STREAM:
                    return new boolean[] {RequestStreamFrame.follows(buf, off), false, false};
                case REQUEST_CHANNEL:
                    return new boolean[] {RequestChannelFrame.follows(buf, off),
                        RequestChannelFrame.isComplete(buf, off), false};
                case PAYLOAD:
                    return new boolean[] {PayloadFrame.follows(buf, off), PayloadFrame.isComplete(buf, off),
                        PayloadFrame.isNext(buf, off)};
                default:
                    return new boolean[] {ExtFrame.ignorable(buf, off), false, false};
            }
        }

        boolean definesComplete() {
            return this == REQUEST_CHANNEL || this == PAYLOAD;
        }

        boolean definesNext() {
            return this == PAYLOAD;
        }

        int expectedFlags(boolean f1, boolean c, boolean n, boolean hasMetadata) {
            int flags = hasMetadata ? FrameFlags.METADATA : 0;
            flags |= f1 ? (this == EXT ? FrameFlags.IGNORE : FrameFlags.FOLLOWS) : 0;
            flags |= c && definesComplete() ? FrameFlags.COMPLETE : 0;
            flags |= n && definesNext() ? FrameFlags.NEXT : 0;
            return flags;
        }
    }

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    static List<Arguments> combinations() {
        String[] metadata = {null, "", "md\u00e9"};
        String[] data = {null, "", "some data"};
        List<Arguments> rows = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (boolean f1 : new boolean[] {false, true}) {
                for (boolean c : kind.definesComplete() ? new boolean[] {false, true} : new boolean[] {false}) {
                    for (boolean n : kind.definesNext() ? new boolean[] {false, true} : new boolean[] {false}) {
                        if (kind == Kind.PAYLOAD && !c && !n) {
                            continue; // forbidden; see payloadWithNeitherNextNorCompleteIsRefused
                        }
                        for (String md : metadata) {
                            for (String d : data) {
                                rows.add(Arguments.of(kind, f1, c, n, md, d));
                            }
                        }
                    }
                }
            }
        }
        return rows;
    }

    @ParameterizedTest(name = "{0} f/i={1} c={2} n={3} metadata={4} data={5}")
    @MethodSource("combinations")
    void roundTripsAtAnOffset(Kind kind, boolean f1, boolean c, boolean n, String mdText, String dataText) {
        ByteBuf md = mdText == null ? null : bufs.utf8(mdText);
        ByteBuf data = dataText == null ? null : bufs.utf8(dataText);
        int mdReaderIndex = md == null ? 0 : md.readerIndex();
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();

        int len = kind.encode(out, f1, c, n, md, data);

        assertThat(out.writerIndex() - off).as("bytes appended").isEqualTo(len);
        assertThat(kind.encodedLengths(f1, c, n, md, data)).as("encodedLength overloads").containsOnly(len);
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.streamId(out, off)).isEqualTo(STREAM_ID);
        assertThat(FrameHeader.frameType(out, off)).isEqualTo(kind.type);
        assertThat(FrameHeader.flags(out, off)).isEqualTo(kind.expectedFlags(f1, c, n, md != null));
        assertThat(kind.flagsRead(out, off))
                .containsExactly(f1, c && kind.definesComplete(), n && kind.definesNext());

        byte[] mdBytes = TestBuffers.readable(md);
        byte[] dataBytes = TestBuffers.readable(data);
        if (md == null) {
            assertThat(kind.metadataLength(out, off, len)).isEqualTo(-1);
            assertThat(kind.metadataOffset(out, off)).isEqualTo(off + kind.payloadStart);
        } else {
            assertThat(kind.metadataLength(out, off, len)).isEqualTo(mdBytes.length);
            assertThat(kind.metadataOffset(out, off)).isEqualTo(off + kind.payloadStart + 3);
            assertThat(TestBuffers.bytes(out, kind.metadataOffset(out, off), mdBytes.length)).isEqualTo(mdBytes);
        }
        assertThat(kind.dataLength(out, off, len)).isEqualTo(dataBytes.length);
        assertThat(kind.dataOffset(out, off, len) + dataBytes.length).isEqualTo(off + len);
        assertThat(TestBuffers.bytes(out, kind.dataOffset(out, off, len), dataBytes.length)).isEqualTo(dataBytes);

        // Borrowed: the sources are neither moved nor released.
        if (md != null) {
            assertThat(md.readerIndex()).isEqualTo(mdReaderIndex);
            assertThat(md.refCnt()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = "EXT", mode = EnumSource.Mode.EXCLUDE)
    void rangeFormWritesTheSameBytesAsSlicesOfTheSource(Kind kind) {
        ByteBuf src = bufs.buffer();
        src.writeCharSequence("0123456789abcdefghij", StandardCharsets.US_ASCII);
        int[][] cases = {{2, 5, 8, 6}, {2, 0, 8, 6}, {0, -1, 4, 10}, {0, -1, 0, 0}, {3, 4, 0, 0}};
        for (int[] r : cases) {
            int mdIndex = r[0];
            int mdLength = r[1];
            int dataIndex = r[2];
            int dataLength = r[3];
            ByteBuf viaRange = bufs.buffer();
            int len = kind.encodeRange(viaRange, true, true, true, src, mdIndex, mdLength, src, dataIndex,
                    dataLength);

            ByteBuf viaSlices = bufs.buffer();
            kind.encode(viaSlices, true, true, true, mdLength < 0 ? null : src.slice(mdIndex, mdLength),
                    src.slice(dataIndex, dataLength));

            assertThat(TestBuffers.readable(viaRange)).as("range %s", java.util.Arrays.toString(r))
                    .isEqualTo(TestBuffers.readable(viaSlices));
            assertThat(len).isEqualTo(viaRange.readableBytes());
        }
        assertThat(src.readerIndex()).isZero();
    }

    @Test
    void rangeFormAcceptsNullSourcesForEmptyRanges() {
        ByteBuf out = bufs.buffer();
        int len = PayloadFrame.encode(out, 3, false, true, false, null, 0, 0, null, 0, 0);
        assertThat(TestBuffers.readable(out)).containsExactly(TestBuffers.b(0, 0, 0, 3, 0x29, 0x40, 0, 0, 0));
        assertThat(len).isEqualTo(9);
    }

    @Test
    void rangeOutsideTheSourceIsRefusedBeforeAnythingIsWritten() {
        ByteBuf src = bufs.of(1, 2, 3, 4);
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> PayloadFrame.encode(out, 1, false, false, true, src, 2, 3, null, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metadata range [2, 5) outside buffer writerIndex 4");
        assertThatThrownBy(() -> RequestStreamFrame.encode(out, 1, false, 1, null, 0, -1, src, -1, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("data range [-1, 1) outside buffer writerIndex 4");
        assertThatThrownBy(() -> RequestResponseFrame.encode(out, 1, false, null, 0, 1, null, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metadata buffer is null with length 1");
        assertThatThrownBy(() -> RequestFnfFrame.encode(out, 1, false, src, 0, -2, null, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metadata length < -1: -2");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void payloadWithNeitherNextNorCompleteIsRefused() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> PayloadFrame.encode(out, 5, true, false, false, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PAYLOAD with neither NEXT nor COMPLETE on stream 5");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void streamFramesNeedAPositiveStreamId() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> RequestResponseFrame.encode(out, 0, false, null, null))
                .hasMessage("REQUEST_RESPONSE needs streamId > 0: 0");
        assertThatThrownBy(() -> RequestFnfFrame.encode(out, -3, false, null, null))
                .hasMessage("REQUEST_FNF needs streamId > 0: -3");
        assertThatThrownBy(() -> RequestStreamFrame.encode(out, 0, false, 1, null, null))
                .hasMessage("REQUEST_STREAM needs streamId > 0: 0");
        assertThatThrownBy(() -> RequestChannelFrame.encode(out, 0, false, false, 1, null, null))
                .hasMessage("REQUEST_CHANNEL needs streamId > 0: 0");
        assertThatThrownBy(() -> PayloadFrame.encode(out, 0, false, true, false, null, null))
                .hasMessage("PAYLOAD needs streamId > 0: 0");
        assertThatThrownBy(() -> ExtFrame.encode(out, -1, true, 1, null, null)).hasMessage("streamId < 0: -1");
        assertThatThrownBy(() -> ExtFrame.encode(out, 0, true, 0, null, null)).hasMessage("extendedType <= 0: 0");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void framesOverTheProtocolLimitAreRefusedBeforeAnythingIsWritten() {
        ByteBuf big = bufs.buffer(FrameHeader.MAX_FRAME_LENGTH);
        big.writerIndex(FrameHeader.MAX_FRAME_LENGTH - FrameHeader.SIZE); // exactly at the limit with no metadata
        ByteBuf out = bufs.buffer();

        assertThat(PayloadFrame.encodedLength(null, big)).isEqualTo(FrameHeader.MAX_FRAME_LENGTH);
        assertThat(PayloadFrame.encode(out, 1, false, false, true, null, big)).isEqualTo(FrameHeader.MAX_FRAME_LENGTH);
        out.clear();

        ByteBuf md = bufs.of(1);
        assertThat(PayloadFrame.encodedLength(md, big)).isEqualTo(FrameHeader.MAX_FRAME_LENGTH + 4);
        assertThatThrownBy(() -> PayloadFrame.encode(out, 1, false, false, true, md, big))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PAYLOAD frame length 16777219 exceeds 16777215; fragment the payload");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void encodedLengthSaturatesInsteadOfOverflowing() {
        assertThat(PayloadFrame.encodedLength(Integer.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(RequestStreamFrame.encodedLength(-1, Integer.MAX_VALUE - 5)).isEqualTo(Integer.MAX_VALUE);
    }
}
