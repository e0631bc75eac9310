package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Round trips of LEASE, KEEPALIVE, METADATA_PUSH, RESUME and RESUME_OK: the connection-level frames. */
class StreamZeroFramesTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @ParameterizedTest(name = "ttl={0} n={1} metadata={2}")
    @CsvSource(nullValues = "null", value = {
        "1000,       200, null",
        "0,          0,   null", // "stop": valid both ways
        "2147483647, 1,   ''",
        "30000,      50,  lease-metadata",
    })
    void leaseRoundTrips(int ttl, int n, String metadata) {
        ByteBuf md = metadata == null ? null : bufs.utf8(metadata);
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();

        int len = LeaseFrame.encode(out, ttl, n, md);

        assertThat(len).isEqualTo(out.writerIndex() - off).isEqualTo(LeaseFrame.encodedLength(ttl, n, md));
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.frameType(out, off)).isEqualTo(FrameType.LEASE);
        assertThat(FrameHeader.streamId(out, off)).isZero();
        assertThat(LeaseFrame.ttlMillis(out, off)).isEqualTo(ttl);
        assertThat(LeaseFrame.numberOfRequests(out, off)).isEqualTo(n);
        if (metadata == null) {
            assertThat(FrameHeader.hasFlag(out, off, FrameFlags.METADATA)).isFalse();
            assertThat(LeaseFrame.metadataLength(out, off, len)).isEqualTo(-1);
        } else {
            assertThat(FrameHeader.hasFlag(out, off, FrameFlags.METADATA)).isTrue();
            assertThat(TestBuffers.bytes(out, LeaseFrame.metadataOffset(out, off),
                    LeaseFrame.metadataLength(out, off, len))).isEqualTo(TestBuffers.ascii(metadata));
        }
    }

    @Test
    void leaseMasksTopBitsAndRefusesNegatives() {
        ByteBuf out = bufs.buffer();
        LeaseFrame.encode(out, 1, 1, null);
        out.setInt(LeaseFrame.TTL_OFFSET, 0x80000000 | 7);
        out.setInt(LeaseFrame.NUMBER_OF_REQUESTS_OFFSET, 0xFFFFFFFF);
        assertThat(LeaseFrame.ttlMillis(out, 0)).isEqualTo(7);
        assertThat(LeaseFrame.numberOfRequests(out, 0)).isEqualTo(Integer.MAX_VALUE);

        ByteBuf empty = bufs.buffer();
        assertThatThrownBy(() -> LeaseFrame.encode(empty, -1, 1, null)).hasMessage("ttlMillis < 0: -1");
        assertThatThrownBy(() -> LeaseFrame.encode(empty, 1, -2, null)).hasMessage("numberOfRequests < 0: -2");
        assertThat(empty.writerIndex()).isZero();
    }

    @ParameterizedTest(name = "respond={0} position={1} data={2}")
    @CsvSource(nullValues = "null", value = {
        "true,  0,                   null",
        "false, 0,                   ''",
        "true,  12345,               12345678",
        "false, 9223372036854775807, echo",
    })
    void keepAliveRoundTrips(boolean respond, long position, String data) {
        ByteBuf d = data == null ? null : bufs.utf8(data);
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();

        int len = KeepAliveFrame.encode(out, respond, position, d);

        assertThat(len).isEqualTo(out.writerIndex() - off)
                .isEqualTo(KeepAliveFrame.encodedLength(respond, position, d));
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.frameType(out, off)).isEqualTo(FrameType.KEEPALIVE);
        assertThat(KeepAliveFrame.respond(out, off)).isEqualTo(respond);
        assertThat(FrameHeader.flags(out, off)).isEqualTo(respond ? FrameFlags.RESPOND : 0);
        assertThat(KeepAliveFrame.lastReceivedPosition(out, off)).isEqualTo(position);
        int dataLength = KeepAliveFrame.dataLength(out, off, len);
        assertThat(TestBuffers.bytes(out, KeepAliveFrame.dataOffset(out, off), dataLength))
                .isEqualTo(data == null ? new byte[0] : TestBuffers.ascii(data));
    }

    @Test
    void positionsAreU63() {
        ByteBuf out = bufs.buffer();
        KeepAliveFrame.encode(out, false, 0, null);
        out.setLong(KeepAliveFrame.LAST_RECEIVED_POSITION_OFFSET, 0x8000000000000009L);
        assertThat(KeepAliveFrame.lastReceivedPosition(out, 0)).isEqualTo(9);
        assertThatThrownBy(() -> KeepAliveFrame.encode(out, false, -1, null))
                .hasMessage("lastReceivedPosition < 0: -1");

        ByteBuf ok = bufs.buffer();
        ResumeOkFrame.encode(ok, 3);
        ok.setLong(ResumeOkFrame.LAST_RECEIVED_CLIENT_POSITION_OFFSET, -1L);
        assertThat(ResumeOkFrame.lastReceivedClientPosition(ok, 0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void metadataPushRoundTripsAndAlwaysSetsM() {
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();
        ByteBuf md = bufs.utf8("pushed");
        int len = MetadataPushFrame.encode(out, md);
        assertThat(len).isEqualTo(12).isEqualTo(MetadataPushFrame.encodedLength(md));
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(FrameHeader.flags(out, off)).isEqualTo(FrameFlags.METADATA);
        assertThat(FrameHeader.streamId(out, off)).isZero();
        assertThat(TestBuffers.bytes(out, MetadataPushFrame.metadataOffset(out, off),
                MetadataPushFrame.metadataLength(out, off, len))).isEqualTo(TestBuffers.ascii("pushed"));

        int empty = out.writerIndex();
        assertThat(MetadataPushFrame.encode(out, null)).isEqualTo(6);
        assertThat(FrameHeader.flags(out, empty)).isEqualTo(FrameFlags.METADATA);
        assertThat(MetadataPushFrame.metadataLength(out, empty, 6)).isZero();
    }

    @Test
    void resumeAndResumeOkRoundTrip() {
        ByteBuf token = bufs.utf8("resume-token-0123");
        ByteBuf out = bufs.prefixed();
        int off = out.writerIndex();
        int len = ResumeFrame.encode(out, token, 1_000_000_000_000L, 42);

        assertThat(len).isEqualTo(ResumeFrame.MIN_LENGTH + 17).isEqualTo(ResumeFrame.encodedLength(token, 1, 2));
        assertThat(FrameValidator.validate(out, off, len)).isNull();
        assertThat(ResumeFrame.majorVersion(out, off)).isEqualTo(1);
        assertThat(ResumeFrame.minorVersion(out, off)).isEqualTo(0);
        assertThat(TestBuffers.bytes(out, ResumeFrame.resumeTokenOffset(out, off),
                ResumeFrame.resumeTokenLength(out, off))).isEqualTo(TestBuffers.ascii("resume-token-0123"));
        assertThat(ResumeFrame.lastReceivedServerPosition(out, off)).isEqualTo(1_000_000_000_000L);
        assertThat(ResumeFrame.firstAvailableClientPosition(out, off)).isEqualTo(42);
        assertThat(token.readerIndex()).isEqualTo(2);

        int ok = out.writerIndex();
        assertThat(ResumeOkFrame.encode(out, 77)).isEqualTo(ResumeOkFrame.LENGTH).isEqualTo(14);
        assertThat(ResumeOkFrame.encodedLength(77)).isEqualTo(14);
        assertThat(FrameValidator.validate(out, ok, 14)).isNull();
        assertThat(ResumeOkFrame.lastReceivedClientPosition(out, ok)).isEqualTo(77);

        ByteBuf none = bufs.buffer();
        assertThatThrownBy(() -> ResumeFrame.encode(none, null, 0, 0)).hasMessage("resumeToken is null");
        assertThatThrownBy(() -> ResumeFrame.encode(none, token, -1, 0))
                .hasMessage("lastReceivedServerPosition < 0: -1");
        assertThatThrownBy(() -> ResumeOkFrame.encode(none, -1)).hasMessage("lastReceivedClientPosition < 0: -1");
        assertThat(none.writerIndex()).isZero();
    }
}
