package dev.sluice.frame;

import static dev.sluice.frame.TestBuffers.b;
import static dev.sluice.frame.TestBuffers.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A table of hand-made frames, each with the exact verdict of {@link FrameValidator}. */
class FrameValidatorTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    /** A 6-byte header: stream id, then {@code type << 10 | flags}. */
    private static byte[] h(int streamId, int type, int flags) {
        int tf = type << 10 | flags;
        return b(streamId >>> 24, streamId >>> 16, streamId >>> 8, streamId, tf >>> 8, tf);
    }

    private static byte[] f(byte[] header, int... body) {
        return concat(header, b(body));
    }

    private static byte[] f(byte[] header, byte[] body) {
        return concat(header, body);
    }

    private static byte[] zeros(int n) {
        return new byte[n];
    }

    private static final int M = FrameFlags.METADATA;

    static List<Arguments> table() {
        return List.of(
            // --- valid frames, including the edge cases the spec allows
            row("LEASE with ttl 0 and n 0 is valid (stop)", f(h(0, 2, 0), 0, 0, 0, 0, 0, 0, 0, 0), null),
            row("LEASE with M and empty metadata", f(h(0, 2, M), 0, 0, 0, 1, 0, 0, 0, 1), null),
            row("KEEPALIVE with an undefined M bit is valid: bits are ignored", f(h(0, 3, M), new int[8]), null),
            row("CANCEL with every flag bit set", h(1, 9, 0x3FF), null),
            row("REQUEST_N with trailing bytes", f(h(1, 8, 0), 0, 0, 0, 1, 9, 9), null),
            row("ERROR with an empty message on stream 0", f(h(0, 11, 0), 0, 0, 1, 2), null),
            row("PAYLOAD C only, empty", h(1, 10, FrameFlags.COMPLETE), null),
            row("PAYLOAD N with M and metadata filling the frame", f(h(1, 10, M | FrameFlags.NEXT), 0, 0, 2, 7, 7),
                    null),
            row("EXT with an unknown extended type and I", f(h(0, 0x3F, FrameFlags.IGNORE), 0, 0, 0, 99), null),
            row("minimal SETUP", f(h(0, 1, 0), 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0), null),
            row("minimal RESUME", f(h(0, 13, 0), concat(b(0, 1, 0, 0, 0, 0), zeros(16))), null),

            // --- header and type
            row("short header", b(0, 0, 0, 1, 0x24), "frame too short for header: length=5, need 6"),
            row("empty frame", new byte[0], "frame too short for header: length=0, need 6"),
            row("unknown type", h(1, 0x2A, 0), "unknown frame type 0x2a"),
            row("unknown type with I: still reported, caller decides", h(1, 0x20, FrameFlags.IGNORE),
                    "unknown frame type 0x20"),
            row("RESERVED type", h(0, 0, 0), "reserved frame type 0x00"),

            // --- stream rules
            row("LEASE on a stream", f(h(5, 2, 0), new int[8]), "LEASE on stream 5, must use stream 0"),
            row("SETUP on a stream", f(h(1, 1, 0), new int[14]), "SETUP on stream 1, must use stream 0"),
            row("KEEPALIVE on a stream", f(h(2, 3, 0), new int[8]), "KEEPALIVE on stream 2, must use stream 0"),
            row("METADATA_PUSH on a stream", h(3, 12, M), "METADATA_PUSH on stream 3, must use stream 0"),
            row("RESUME on a stream", f(h(1, 13, 0), new int[22]), "RESUME on stream 1, must use stream 0"),
            row("RESUME_OK on a stream", f(h(4, 14, 0), new int[8]), "RESUME_OK on stream 4, must use stream 0"),
            row("REQUEST_RESPONSE on stream 0", h(0, 4, 0), "REQUEST_RESPONSE on stream 0, must use a stream id > 0"),
            row("REQUEST_N on stream 0", f(h(0, 8, 0), 0, 0, 0, 1), "REQUEST_N on stream 0, must use a stream id > 0"),
            row("CANCEL on stream 0", h(0, 9, 0), "CANCEL on stream 0, must use a stream id > 0"),
            row("PAYLOAD on stream 0", h(0, 10, FrameFlags.NEXT), "PAYLOAD on stream 0, must use a stream id > 0"),
            row("stream id top bit is reserved and masked", h(0x80000000, 9, 0),
                    "CANCEL on stream 0, must use a stream id > 0"),

            // --- minimum lengths
            row("REQUEST_N too short", f(h(1, 8, 0), 0, 0), "frame too short for REQUEST_N: length=8, need 10"),
            row("REQUEST_STREAM too short", f(h(1, 6, 0), 0, 0, 1),
                    "frame too short for REQUEST_STREAM: length=9, need 10"),
            row("REQUEST_CHANNEL too short", h(1, 7, 0), "frame too short for REQUEST_CHANNEL: length=6, need 10"),
            row("LEASE too short", f(h(0, 2, 0), new int[7]), "frame too short for LEASE: length=13, need 14"),
            row("KEEPALIVE too short", f(h(0, 3, 0), new int[7]),
                    "frame too short for KEEPALIVE: length=13, need 14"),
            row("ERROR too short", f(h(1, 11, 0), 0, 0, 2), "frame too short for ERROR: length=9, need 10"),
            row("RESUME_OK too short", f(h(0, 14, 0), new int[7]),
                    "frame too short for RESUME_OK: length=13, need 14"),
            row("EXT too short", f(h(1, 0x3F, 0), 0, 0, 1), "frame too short for EXT: length=9, need 10"),

            // --- metadata length
            row("M set but no room for the u24", f(h(1, 4, M), 0, 0),
                    "frame too short for REQUEST_RESPONSE with metadata: length=8, need 9"),
            row("M set and length runs past the end", concat(f(h(1, 4, M), 0, 1, 0x2C), zeros(120)),
                    "metadata length 300 exceeds frame: 120 bytes left"),
            row("REQUEST_STREAM metadata too long", f(h(1, 6, M), 0, 0, 0, 1, 0, 0, 2, 7),
                    "metadata length 2 exceeds frame: 1 bytes left"),
            row("PAYLOAD metadata too long", f(h(1, 10, M | FrameFlags.NEXT), 0xFF, 0xFF, 0xFF),
                    "metadata length 16777215 exceeds frame: 0 bytes left"),
            row("EXT metadata u24 missing", f(h(1, 0x3F, M), 0, 0, 0, 1, 0),
                    "frame too short for EXT with metadata: length=11, need 13"),

            // --- values the spec requires
            row("REQUEST_N with n 0", f(h(1, 8, 0), 0, 0, 0, 0), "REQUEST_N with n=0"),
            row("REQUEST_N with only the reserved bit", f(h(1, 8, 0), 0x80, 0, 0, 0), "REQUEST_N with n=0"),
            row("REQUEST_STREAM with n 0", f(h(1, 6, 0), 0, 0, 0, 0), "REQUEST_STREAM with initialRequestN=0"),
            row("REQUEST_CHANNEL with n 0", f(h(1, 7, 0), 0, 0, 0, 0), "REQUEST_CHANNEL with initialRequestN=0"),
            row("PAYLOAD with neither N nor C", h(1, 10, 0), "PAYLOAD with neither NEXT nor COMPLETE"),
            row("PAYLOAD with F only", h(1, 10, FrameFlags.FOLLOWS), "PAYLOAD with neither NEXT nor COMPLETE"),
            row("METADATA_PUSH without M", f(h(0, 12, 0), 1, 2), "METADATA_PUSH without the M flag"),
            row("ERROR with code 0", f(h(1, 11, 0), 0, 0, 0, 0, 'x'), "ERROR with reserved error code 0x00000000"),
            row("EXT with extended type 0", f(h(1, 0x3F, 0), 0, 0, 0, 0), "EXT with extendedType=0"),

            // --- SETUP
            row("SETUP too short", f(h(0, 1, 0), new int[13]), "frame too short for SETUP: length=19, need 20"),
            row("SETUP with R too short for the token length", f(h(0, 1, FrameFlags.RESUME_ENABLE),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0), "frame too short for SETUP: length=20, need 22"),
            row("SETUP keep-alive 0", f(h(0, 1, 0), 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0),
                    "SETUP with keepAliveInterval=0"),
            row("SETUP lifetime 0 (top bit masked)", f(h(0, 1, 0), 0, 1, 0, 0, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0),
                    "SETUP with maxLifetime=0"),
            row("SETUP token runs past the end", f(h(0, 1, FrameFlags.RESUME_ENABLE),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 40, 1, 2, 3, 4),
                    "resume token length 40 exceeds frame: 4 bytes left"),
            row("SETUP token leaves no room for the MIME lengths", f(h(0, 1, FrameFlags.RESUME_ENABLE),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 7, 7), "frame too short for SETUP: length=22, need 23"),
            row("SETUP metadata MIME runs past the end", f(h(0, 1, 0),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 50, 'a', 'b', 'c'),
                    "metadata MIME type length 50 exceeds frame: 3 bytes left"),
            row("SETUP metadata MIME leaves no room for the data MIME length", f(h(0, 1, 0),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 'a', 'b'), "frame too short for SETUP: length=21, need 22"),
            row("SETUP data MIME runs past the end", f(h(0, 1, 0),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 'a', 9, 'b'),
                    "data MIME type length 9 exceeds frame: 1 bytes left"),
            row("SETUP metadata runs past the end", f(h(0, 1, M),
                    0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 5, 1),
                    "metadata length 5 exceeds frame: 1 bytes left"),

            // --- RESUME
            row("RESUME too short", f(h(0, 13, 0), new int[21]), "frame too short for RESUME: length=27, need 28"),
            row("RESUME token runs into the positions", f(h(0, 13, 0), concat(b(0, 1, 0, 0, 0, 5), zeros(18))),
                    "frame too short for RESUME: length=30, need 33")
        );
    }

    private static Arguments row(String name, byte[] frame, String expected) {
        return Arguments.of(name, frame, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void validatesExactly(String name, byte[] frame, String expected) {
        // At an offset, in a buffer that ends with the frame: reading past it would throw.
        byte[] placed = concat(TestBuffers.PREFIX, frame);
        ByteBuf buf = bufs.exact(placed);
        assertThat(FrameValidator.validate(buf, TestBuffers.PREFIX.length, frame.length)).isEqualTo(expected);
    }

    @Test
    void regionOutsideTheBufferIsReportedNotThrown() {
        ByteBuf buf = bufs.of(0, 0, 0, 1, 0x24, 0, 0, 0, 0, 0);
        assertThat(FrameValidator.validate(buf, 2, 10)).isEqualTo("frame region [2, 12) outside buffer writerIndex 10");
        assertThat(FrameValidator.validate(buf, -1, 6)).isEqualTo("frame region [-1, 5) outside buffer writerIndex 10");
        assertThat(FrameValidator.validate(buf, 0, -1)).isEqualTo("frame region [0, -1) outside buffer writerIndex 10");
        assertThat(FrameValidator.validate(buf, Integer.MAX_VALUE, Integer.MAX_VALUE))
                .isEqualTo("frame region [2147483647, 4294967294) outside buffer writerIndex 10");
        assertThat(FrameValidator.validate(null, 0, 6)).isEqualTo("frame buffer is null");
    }

    @Test
    void framesOverTheProtocolLimitAreReported() {
        ByteBuf big = bufs.buffer(FrameHeader.MAX_FRAME_LENGTH + 1);
        big.writerIndex(FrameHeader.MAX_FRAME_LENGTH + 1);
        big.setBytes(0, h(1, 10, FrameFlags.NEXT));
        assertThat(FrameValidator.validate(big, 0, FrameHeader.MAX_FRAME_LENGTH)).isNull();
        assertThat(FrameValidator.validate(big, 0, FrameHeader.MAX_FRAME_LENGTH + 1))
                .isEqualTo("frame length 16777216 exceeds 16777215");
    }

    @Test
    void ignorableReadsTheIFlag() {
        assertThat(FrameValidator.ignorable(bufs.exact(h(1, 0x2A, FrameFlags.IGNORE)), 0)).isTrue();
        assertThat(FrameValidator.ignorable(bufs.exact(h(1, 0x2A, 0x1FF)), 0)).isFalse();
    }
}
