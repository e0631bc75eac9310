package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ErrorFrameTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void roundTripsAUtf8MessageWrittenStraightIntoTheFrame() {
        String message = "lease_exhausted: caf\u00e9 \ud83d\ude80";
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();

        int len = ErrorFrame.encode(out, 5, ErrorCodes.REJECTED, message);

        int utf8 = message.getBytes(StandardCharsets.UTF_8).length;
        assertThat(len).isEqualTo(10 + utf8).isEqualTo(ErrorFrame.encodedLength(5, ErrorCodes.REJECTED, message));
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.streamId(out, off)).isEqualTo(5);
        assertThat(ErrorFrame.errorCode(out, off)).isEqualTo(ErrorCodes.REJECTED);
        assertThat(ErrorFrame.messageLength(out, off, len)).isEqualTo(utf8);
        assertThat(ErrorFrame.messageOffset(out, off)).isEqualTo(off + 10);
        assertThat(ErrorFrame.message(out, off, len)).isEqualTo(message);
    }

    @Test
    void nullAndEmptyMessagesGiveAMinimalFrame() {
        ByteBuf out = bufs.buffer();
        assertThat(ErrorFrame.encode(out, 0, ErrorCodes.CONNECTION_CLOSE, null)).isEqualTo(10);
        assertThat(ErrorFrame.encode(out, 0, ErrorCodes.CONNECTION_CLOSE, "")).isEqualTo(10);
        assertThat(ErrorFrame.message(out, 10, 10)).isEmpty();
        assertThat(ErrorFrame.encodedLength(0, ErrorCodes.CONNECTION_CLOSE, null)).isEqualTo(10);
    }

    @Test
    void userCodesAreAllowedOnAnyStream() {
        ByteBuf out = bufs.buffer();
        ErrorFrame.encode(out, 3, 0x301, "x");
        ErrorFrame.encode(out, 0, 0xFFFFFFFE, "y");
        assertThat(ErrorFrame.errorCode(out, 0)).isEqualTo(0x301);
        assertThat(ErrorFrame.errorCode(out, 11)).isEqualTo(0xFFFFFFFE);
    }

    @Test
    void refusesReservedCodesAndCodesOnTheWrongStream() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> ErrorFrame.encode(out, 1, 0, "m"))
                .hasMessage("reserved error code: RESERVED(0x00000000)");
        assertThatThrownBy(() -> ErrorFrame.encode(out, 1, 0xFFFFFFFF, "m"))
                .hasMessage("reserved error code: RESERVED(0xffffffff)");
        assertThatThrownBy(() -> ErrorFrame.encode(out, 3, ErrorCodes.INVALID_SETUP, "m"))
                .hasMessage("INVALID_SETUP on stream 3, must use stream 0");
        assertThatThrownBy(() -> ErrorFrame.encode(out, 0, ErrorCodes.APPLICATION_ERROR, "m"))
                .hasMessage("APPLICATION_ERROR on stream 0, needs a stream > 0");
        assertThatThrownBy(() -> ErrorFrame.encode(out, -1, ErrorCodes.REJECTED, "m")).hasMessage("streamId < 0: -1");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void malformedUtf8IsReadWithReplacementCharacters() {
        ByteBuf out = bufs.of(0, 0, 0, 1, 0x2C, 0, 0, 0, 0x02, 0x01, 'o', 'k', 0xC3);
        assertThat(FrameValidator.validate(out, 0, out.writerIndex())).isNull();
        assertThat(ErrorFrame.message(out, 0, out.writerIndex())).isEqualTo("ok\ufffd");
    }
}
