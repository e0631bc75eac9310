package dev.sluice.frame;

import static dev.sluice.frame.TestBuffers.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Frames written byte by byte from the spec's layouts (no length prefix), checked in both directions: our encoder
 * must produce exactly these bytes, and our validator and readers must accept and read them. Comments spell out
 * each field; the type-and-flags short is {@code type << 10 | flags}.
 */
class GoldenBytesTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void setupWithLeaseMetadataAndData() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x00, // stream 0
                0x05, 0x40,             // SETUP 0x01 << 10 = 0x0400 | M 0x100 | L 0x040
                0x00, 0x01, 0x00, 0x00, // version 1.0
                0x00, 0x00, 0x01, 0xF4, // keep-alive interval 500 ms
                0x00, 0x01, 0x5F, 0x90, // max lifetime 90,000 ms
                0x03, 'x', '/', 'm',    // metadata MIME type, u8 length
                0x03, 'x', '/', 'd',    // data MIME type
                0x00, 0x00, 0x01, 'M',  // metadata length u24 = 1, metadata
                'D', 'D');              // data to the end
        ByteBuf out = bufs.buffer();
        SetupFrame.encode(out, true, 500, 90_000, null, "x/m", "x/d", bufs.utf8("M"), bufs.utf8("DD"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        int len = golden.length;
        assertThat(FrameValidator.validate(in, 0, len)).isNull();
        assertThat(SetupFrame.leaseEnabled(in, 0)).isTrue();
        assertThat(SetupFrame.resumeEnabled(in, 0)).isFalse();
        assertThat(SetupFrame.keepAliveIntervalMillis(in, 0)).isEqualTo(500);
        assertThat(SetupFrame.maxLifetimeMillis(in, 0)).isEqualTo(90_000);
        assertThat(SetupFrame.metadataMimeType(in, 0)).isEqualTo("x/m");
        assertThat(SetupFrame.dataMimeType(in, 0)).isEqualTo("x/d");
        assertThat(SetupFrame.payloadStart(in, 0)).isEqualTo(26);
        assertThat(SetupFrame.metadataLength(in, 0, len)).isEqualTo(1);
        assertThat(SetupFrame.metadataOffset(in, 0)).isEqualTo(29);
        assertThat(SetupFrame.dataOffset(in, 0, len)).isEqualTo(30);
        assertThat(SetupFrame.dataLength(in, 0, len)).isEqualTo(2);
    }

    @Test
    void setupWithResumeToken() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x00,
                0x04, 0x80,             // SETUP | R 0x080
                0x00, 0x01, 0x00, 0x00,
                0x00, 0x00, 0x4E, 0x20, // 20,000 ms
                0x00, 0x01, 0x5F, 0x90,
                0x00, 0x02, 0xCA, 0xFE, // token length u16 = 2, token
                0x00,                   // empty metadata MIME type
                0x01, 'j');             // data MIME type "j", no metadata, no data
        ByteBuf out = bufs.buffer();
        SetupFrame.encode(out, false, 20_000, 90_000, bufs.of(0xCA, 0xFE), "", "j", null, null);
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(SetupFrame.resumeTokenLength(in, 0)).isEqualTo(2);
        assertThat(SetupFrame.resumeTokenOffset(in, 0)).isEqualTo(20);
        assertThat(SetupFrame.metadataMimeType(in, 0)).isEmpty();
        assertThat(SetupFrame.dataMimeType(in, 0)).isEqualTo("j");
        assertThat(SetupFrame.metadataLength(in, 0, golden.length)).isEqualTo(-1);
        assertThat(SetupFrame.dataLength(in, 0, golden.length)).isZero();
    }

    @Test
    void requestResponseWithMetadata() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x01, // stream 1
                0x11, 0x00,             // REQUEST_RESPONSE 0x04 << 10 = 0x1000 | M
                0x00, 0x00, 0x02,       // metadata length 2
                'm', 'd',
                'h', 'i');
        ByteBuf out = bufs.buffer();
        RequestResponseFrame.encode(out, 1, false, bufs.utf8("md"), bufs.utf8("hi"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(RequestResponseFrame.metadataLength(in, 0, golden.length)).isEqualTo(2);
        assertThat(RequestResponseFrame.metadataOffset(in, 0)).isEqualTo(9);
        assertThat(RequestResponseFrame.dataOffset(in, 0, golden.length)).isEqualTo(11);
        assertThat(RequestResponseFrame.dataLength(in, 0, golden.length)).isEqualTo(2);
    }

    @Test
    void requestFnfWithEmptyMetadataAndFollows() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x03,
                0x15, 0x80,             // REQUEST_FNF 0x05 << 10 = 0x1400 | M | F 0x080
                0x00, 0x00, 0x00,       // metadata length 0: empty, not absent
                'z');
        ByteBuf out = bufs.buffer();
        RequestFnfFrame.encode(out, 3, true, bufs.buffer(), bufs.utf8("z"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);
        assertThat(RequestFnfFrame.metadataLength(bufs.exact(golden), 0, golden.length)).isZero();
    }

    @Test
    void requestStreamWithUnboundedDemand() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x03,
                0x18, 0x00,             // REQUEST_STREAM 0x06 << 10 = 0x1800
                0x7F, 0xFF, 0xFF, 0xFF, // initial request N 2^31-1: unbounded
                'x');
        ByteBuf out = bufs.buffer();
        RequestStreamFrame.encode(out, 3, false, Long.MAX_VALUE, null, bufs.utf8("x"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(RequestStreamFrame.initialRequestN(in, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(RequestStreamFrame.metadataLength(in, 0, golden.length)).isEqualTo(-1);
        assertThat(RequestStreamFrame.dataOffset(in, 0, golden.length)).isEqualTo(10);
    }

    @Test
    void requestChannelCompleteWithDemand() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x05,
                0x1C, 0x40,             // REQUEST_CHANNEL 0x07 << 10 = 0x1C00 | C 0x040
                0x00, 0x00, 0x00, 0x10); // initial request N 16, no payload
        ByteBuf out = bufs.buffer();
        RequestChannelFrame.encode(out, 5, false, true, 16, null, null);
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);
        assertThat(RequestChannelFrame.initialRequestN(bufs.exact(golden), 0)).isEqualTo(16);
    }

    @Test
    void payloadNextCompleteWithMetadata() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x05,
                0x29, 0x60,             // PAYLOAD 0x0A << 10 = 0x2800 | M | C 0x040 | N 0x020
                0x00, 0x00, 0x01, 'm',
                'a', 'b', 'c');
        ByteBuf out = bufs.buffer();
        PayloadFrame.encode(out, 5, false, true, true, bufs.utf8("m"), bufs.utf8("abc"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(PayloadFrame.isNext(in, 0)).isTrue();
        assertThat(PayloadFrame.isComplete(in, 0)).isTrue();
        assertThat(PayloadFrame.follows(in, 0)).isFalse();
        assertThat(PayloadFrame.dataLength(in, 0, golden.length)).isEqualTo(3);
    }

    @Test
    void payloadCompleteOnly() {
        byte[] golden = b(0x00, 0x00, 0x00, 0x05, 0x28, 0x40); // PAYLOAD | C, header only
        ByteBuf out = bufs.buffer();
        PayloadFrame.encode(out, 5, false, true, false, null, null);
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);
    }

    @Test
    void requestNAndCancel() {
        ByteBuf out = bufs.buffer();
        RequestNFrame.encode(out, 7, 3);
        CancelFrame.encode(out, 7);
        assertThat(TestBuffers.readable(out)).isEqualTo(b(
                0x00, 0x00, 0x00, 0x07, 0x20, 0x00, 0x00, 0x00, 0x00, 0x03, // REQUEST_N 0x08 << 10 = 0x2000, n 3
                0x00, 0x00, 0x00, 0x07, 0x24, 0x00));                        // CANCEL 0x09 << 10 = 0x2400
    }

    @Test
    void errorOnStreamAndOnConnection() {
        byte[] rejected = TestBuffers.concat(b(
                0x00, 0x00, 0x00, 0x05,
                0x2C, 0x00,             // ERROR 0x0B << 10 = 0x2C00
                0x00, 0x00, 0x02, 0x02), // REJECTED
                TestBuffers.ascii("lease_exhausted"));
        byte[] close = b(0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x01, 0x02, 'b', 'y', 'e');
        ByteBuf out = bufs.buffer();
        ErrorFrame.encode(out, 5, ErrorCodes.REJECTED, "lease_exhausted");
        assertThat(TestBuffers.readable(out)).isEqualTo(rejected);
        out.clear();
        ErrorFrame.encode(out, 0, ErrorCodes.CONNECTION_CLOSE, "bye");
        assertThat(TestBuffers.readable(out)).isEqualTo(close);

        ByteBuf in = bufs.exact(rejected);
        assertThat(FrameValidator.validate(in, 0, rejected.length)).isNull();
        assertThat(ErrorFrame.errorCode(in, 0)).isEqualTo(ErrorCodes.REJECTED);
        assertThat(ErrorFrame.message(in, 0, rejected.length)).isEqualTo("lease_exhausted");
    }

    @Test
    void leaseWithMetadataHasNoMetadataLength() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x00,
                0x09, 0x00,             // LEASE 0x02 << 10 = 0x0800 | M
                0x00, 0x00, 0x03, 0xE8, // TTL 1000 ms
                0x00, 0x00, 0x00, 0xC8, // 200 requests
                'L', 'M');              // metadata to the end, no u24 length
        ByteBuf out = bufs.buffer();
        LeaseFrame.encode(out, 1000, 200, bufs.utf8("LM"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(LeaseFrame.ttlMillis(in, 0)).isEqualTo(1000);
        assertThat(LeaseFrame.numberOfRequests(in, 0)).isEqualTo(200);
        assertThat(LeaseFrame.metadataOffset(in, 0)).isEqualTo(14);
        assertThat(LeaseFrame.metadataLength(in, 0, golden.length)).isEqualTo(2);
    }

    @Test
    void keepAliveWithRespondAndTimestampData() {
        byte[] golden = b(
                0x00, 0x00, 0x00, 0x00,
                0x0C, 0x80,             // KEEPALIVE 0x03 << 10 = 0x0C00 | R 0x080
                0, 0, 0, 0, 0, 0, 0, 0, // last received position 0 (no resumption)
                1, 2, 3, 4, 5, 6, 7, 8); // data: an 8-byte timestamp to be echoed
        ByteBuf out = bufs.buffer();
        KeepAliveFrame.encode(out, true, 0, bufs.of(1, 2, 3, 4, 5, 6, 7, 8));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);

        ByteBuf in = bufs.exact(golden);
        assertThat(FrameValidator.validate(in, 0, golden.length)).isNull();
        assertThat(KeepAliveFrame.respond(in, 0)).isTrue();
        assertThat(in.getLong(KeepAliveFrame.dataOffset(in, 0))).isEqualTo(0x0102030405060708L);
    }

    @Test
    void metadataPush() {
        byte[] golden = b(0x00, 0x00, 0x00, 0x00, 0x31, 0x00, 'p', 'q'); // METADATA_PUSH 0x0C << 10 | M
        ByteBuf out = bufs.buffer();
        MetadataPushFrame.encode(out, bufs.utf8("pq"));
        assertThat(TestBuffers.readable(out)).isEqualTo(golden);
        assertThat(FrameValidator.validate(bufs.exact(golden), 0, golden.length)).isNull();
    }

    @Test
    void resumeResumeOkAndExt() {
        ByteBuf out = bufs.buffer();
        ResumeFrame.encode(out, bufs.of(0xAB), 2, 1);
        assertThat(TestBuffers.readable(out)).isEqualTo(b(
                0x00, 0x00, 0x00, 0x00,
                0x34, 0x00,             // RESUME 0x0D << 10 = 0x3400
                0x00, 0x01, 0x00, 0x00, // version 1.0
                0x00, 0x01, 0xAB,       // token length 1, token
                0, 0, 0, 0, 0, 0, 0, 2, // last received server position
                0, 0, 0, 0, 0, 0, 0, 1)); // first available client position
        out.clear();
        ResumeOkFrame.encode(out, 0x0102);
        assertThat(TestBuffers.readable(out)).isEqualTo(b(
                0x00, 0x00, 0x00, 0x00, 0x38, 0x00, 0, 0, 0, 0, 0, 0, 0x01, 0x02)); // RESUME_OK 0x0E << 10
        out.clear();
        ExtFrame.encode(out, 3, true, 0x10, bufs.utf8("m"), bufs.utf8("d"));
        assertThat(TestBuffers.readable(out)).isEqualTo(b(
                0x00, 0x00, 0x00, 0x03,
                0xFF, 0x00,             // EXT 0x3F << 10 = 0xFC00 | I 0x200 | M 0x100
                0x00, 0x00, 0x00, 0x10, // extended type 16
                0x00, 0x00, 0x01, 'm', 'd'));
    }
}
