package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The long-in-the-API, u31-on-the-wire demand of REQUEST_N, REQUEST_STREAM and REQUEST_CHANNEL. */
class DemandMappingTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @ParameterizedTest(name = "n={0} -> wire {1} -> read {2}")
    @CsvSource({
        // api n,            wire value,  read back
        "1,                   1,           1",
        "5,                   5,           5",
        "2147483646,          2147483646,  2147483646", // 2^31-2: the largest bounded demand
        "2147483647,          2147483647,  9223372036854775807", // 2^31-1 means unbounded
        "2147483648,          2147483647,  9223372036854775807", // clamped
        "9223372036854775807, 2147483647,  9223372036854775807", // Long.MAX_VALUE
    })
    void clampsOnWriteAndMapsUnboundedOnRead(long n, int wire, long read) {
        ByteBuf out = bufs.buffer();
        RequestNFrame.encode(out, 3, n);
        int s = out.writerIndex();
        RequestStreamFrame.encode(out, 3, false, n, null, null);
        int c = out.writerIndex();
        RequestChannelFrame.encode(out, 3, false, false, n, null, null);

        assertThat(out.getInt(RequestNFrame.REQUEST_N_OFFSET)).isEqualTo(wire);
        assertThat(out.getInt(s + RequestStreamFrame.INITIAL_REQUEST_N_OFFSET)).isEqualTo(wire);
        assertThat(out.getInt(c + RequestChannelFrame.INITIAL_REQUEST_N_OFFSET)).isEqualTo(wire);
        assertThat(RequestNFrame.requestN(out, 0)).isEqualTo(read);
        assertThat(RequestStreamFrame.initialRequestN(out, s)).isEqualTo(read);
        assertThat(RequestChannelFrame.initialRequestN(out, c)).isEqualTo(read);
    }

    @Test
    void readersMaskTheReservedTopBit() {
        // 0x80000005 -> 5; 0xFFFFFFFF -> 0x7FFFFFFF -> unbounded
        ByteBuf n5 = bufs.of(0, 0, 0, 1, 0x20, 0, 0x80, 0, 0, 5);
        ByteBuf all = bufs.of(0, 0, 0, 1, 0x20, 0, 0xFF, 0xFF, 0xFF, 0xFF);
        assertThat(RequestNFrame.requestN(n5, 0)).isEqualTo(5);
        assertThat(RequestNFrame.requestN(all, 0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void demandBelowOneIsRefusedNotInvented() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> RequestNFrame.encode(out, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("n < 1: 0");
        assertThatThrownBy(() -> RequestStreamFrame.encode(out, 1, false, -1, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("initialRequestN < 1: -1");
        assertThatThrownBy(() -> RequestChannelFrame.encode(out, 1, false, false, Long.MIN_VALUE, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("initialRequestN < 1: -9223372036854775808");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void requestNAndCancelHaveFixedLengths() {
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();
        assertThat(RequestNFrame.encode(out, 9, 2)).isEqualTo(RequestNFrame.LENGTH).isEqualTo(10);
        assertThat(RequestNFrame.encodedLength(9, 2)).isEqualTo(10);
        assertThat(FrameValidator.validate(out, off, 10)).isNull();
        assertThat(FrameHeader.streamId(out, off)).isEqualTo(9);
        assertThat(FrameHeader.frameType(out, off)).isEqualTo(FrameType.REQUEST_N);
        assertThat(FrameHeader.flags(out, off)).isZero();

        int cancel = out.writerIndex();
        assertThat(CancelFrame.encode(out, 9)).isEqualTo(CancelFrame.LENGTH).isEqualTo(6);
        assertThat(CancelFrame.encodedLength(9)).isEqualTo(6);
        assertThat(FrameValidator.validate(out, cancel, 6)).isNull();
        assertThat(FrameHeader.frameType(out, cancel)).isEqualTo(FrameType.CANCEL);
        assertThat(FrameHeader.streamId(out, cancel)).isEqualTo(9);

        assertThatThrownBy(() -> CancelFrame.encode(out, 0)).hasMessage("CANCEL needs streamId > 0: 0");
        assertThatThrownBy(() -> RequestNFrame.encode(out, 0, 1)).hasMessage("REQUEST_N needs streamId > 0: 0");
    }
}
