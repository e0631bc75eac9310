package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SetupFrameTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @ParameterizedTest(name = "lease={0} token={1} metadata={2} data={3}")
    @CsvSource(nullValues = "null", value = {
        "false, null,         null,  null",
        "true,  null,         null,  ''",
        "false, tok,          null,  hello",
        "true,  tok,          '',    hello",
        "true,  '',           md,    ''",
        "false, a-long-token, md,    data",
    })
    void roundTripsAtAnOffset(boolean lease, String token, String metadata, String data) {
        ByteBuf tokenBuf = token == null ? null : bufs.utf8(token);
        ByteBuf md = metadata == null ? null : bufs.utf8(metadata);
        ByteBuf dataBuf = data == null ? null : bufs.utf8(data);
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();

        int len = SetupFrame.encode(out, lease, 500, 90_000, tokenBuf, "message/x.rsocket.composite-metadata.v0",
                "application/json", md, dataBuf);

        assertThat(out.writerIndex() - off).isEqualTo(len);
        assertThat(SetupFrame.encodedLength(lease, 500, 90_000, tokenBuf, "message/x.rsocket.composite-metadata.v0",
                "application/json", md, dataBuf)).isEqualTo(len);
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.streamId(out, off)).isZero();
        assertThat(FrameHeader.frameType(out, off)).isEqualTo(FrameType.SETUP);
        assertThat(SetupFrame.majorVersion(out, off)).isEqualTo(1);
        assertThat(SetupFrame.minorVersion(out, off)).isEqualTo(0);
        assertThat(SetupFrame.keepAliveIntervalMillis(out, off)).isEqualTo(500);
        assertThat(SetupFrame.maxLifetimeMillis(out, off)).isEqualTo(90_000);
        assertThat(SetupFrame.leaseEnabled(out, off)).isEqualTo(lease);
        assertThat(SetupFrame.resumeEnabled(out, off)).isEqualTo(token != null);
        if (token == null) {
            assertThat(SetupFrame.resumeTokenLength(out, off)).isEqualTo(-1);
            assertThat(SetupFrame.resumeTokenOffset(out, off)).isEqualTo(-1);
        } else {
            assertThat(TestBuffers.bytes(out, SetupFrame.resumeTokenOffset(out, off),
                    SetupFrame.resumeTokenLength(out, off))).isEqualTo(TestBuffers.ascii(token));
        }
        assertThat(SetupFrame.metadataMimeType(out, off)).isEqualTo("message/x.rsocket.composite-metadata.v0");
        assertThat(SetupFrame.metadataMimeTypeLength(out, off)).isEqualTo(39);
        assertThat(SetupFrame.dataMimeType(out, off)).isEqualTo("application/json");
        assertThat(SetupFrame.dataMimeTypeLength(out, off)).isEqualTo(16);

        int payloadStart = SetupFrame.payloadStart(out, off);
        assertThat(payloadStart).isEqualTo(18 + (token == null ? 0 : 2 + token.length()) + 1 + 39 + 1 + 16);
        if (metadata == null) {
            assertThat(SetupFrame.metadataLength(out, off, len)).isEqualTo(-1);
        } else {
            assertThat(TestBuffers.bytes(out, SetupFrame.metadataOffset(out, off),
                    SetupFrame.metadataLength(out, off, len))).isEqualTo(TestBuffers.ascii(metadata));
        }
        byte[] expectedData = data == null ? new byte[0] : TestBuffers.ascii(data);
        assertThat(TestBuffers.bytes(out, SetupFrame.dataOffset(out, off, len), SetupFrame.dataLength(out, off, len)))
                .isEqualTo(expectedData);
        assertThat(SetupFrame.dataOffset(out, off, len) + SetupFrame.dataLength(out, off, len)).isEqualTo(off + len);
        assertThat(PayloadSection.dataLength(out, off, len, payloadStart)).isEqualTo(expectedData.length);
    }

    @Test
    void explicitVersionIsWritten() {
        ByteBuf out = bufs.buffer();
        SetupFrame.encode(out, 2, 7, false, 1, 1, null, "", "", null, null);
        assertThat(SetupFrame.majorVersion(out, 0)).isEqualTo(2);
        assertThat(SetupFrame.minorVersion(out, 0)).isEqualTo(7);
        assertThat(out.readableBytes()).isEqualTo(SetupFrame.MIN_LENGTH);
    }

    @Test
    void keepAliveFieldsMaskTheReservedTopBit() {
        ByteBuf out = bufs.buffer();
        SetupFrame.encode(out, false, 500, 1000, null, "a", "b", null, null);
        out.setInt(SetupFrame.KEEPALIVE_INTERVAL_OFFSET, 0x80000000 | 500);
        out.setInt(SetupFrame.MAX_LIFETIME_OFFSET, 0x80000000 | 1000);
        assertThat(SetupFrame.keepAliveIntervalMillis(out, 0)).isEqualTo(500);
        assertThat(SetupFrame.maxLifetimeMillis(out, 0)).isEqualTo(1000);
    }

    @Test
    void refusesArgumentsThatDoNotFitAndWritesNothing() {
        ByteBuf out = bufs.buffer();
        ByteBuf hugeToken = bufs.buffer(0x10000).writerIndex(0x10000);
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 0, 1, null, "a", "b", null, null))
                .hasMessage("keepAliveIntervalMillis <= 0: 0");
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 1, -5, null, "a", "b", null, null))
                .hasMessage("maxLifetimeMillis <= 0: -5");
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 1, 1, hugeToken, "a", "b", null, null))
                .hasMessage("resumeToken length 65536 exceeds 65535");
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 1, 1, null, null, "b", null, null))
                .hasMessage("metadataMimeType is null");
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 1, 1, null, "a", "x".repeat(256), null, null))
                .hasMessageStartingWith("dataMimeType is 256 chars, max 255: ");
        assertThatThrownBy(() -> SetupFrame.encode(out, false, 1, 1, null, "text/pl\u00e4in", "b", null, null))
                .hasMessage("metadataMimeType is not US-ASCII at index 7: text/pl\u00e4in");
        assertThatThrownBy(() -> SetupFrame.encode(out, 0x10000, 0, false, 1, 1, null, "a", "b", null, null))
                .hasMessage("version outside 0..65535: 65536.0");
        assertThat(out.writerIndex()).isZero();
    }
}
