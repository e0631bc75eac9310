package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameDumpTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    private String dumpOf(ByteBuf out) {
        return FrameDump.toString(out, 0, out.writerIndex());
    }

    @Test
    void describesEachFrameOnOneLine() {
        ByteBuf out = bufs.buffer();
        PayloadFrame.encode(out, 5, false, true, true, bufs.utf8("abc"), bufs.utf8("twelve bytes"));
        assertThat(dumpOf(out)).isEqualTo("PAYLOAD stream=5 flags=M|N|C metadata=3 data=12");

        out.clear();
        PayloadFrame.encode(out, 5, false, true, true, null, bufs.utf8("twelve bytes"));
        assertThat(dumpOf(out)).isEqualTo("PAYLOAD stream=5 flags=N|C data=12");

        out.clear();
        RequestStreamFrame.encode(out, 1, true, Long.MAX_VALUE, null, null);
        assertThat(dumpOf(out)).isEqualTo("REQUEST_STREAM stream=1 flags=F n=unbounded data=0");

        out.clear();
        RequestNFrame.encode(out, 3, 16);
        assertThat(dumpOf(out)).isEqualTo("REQUEST_N stream=3 n=16");

        out.clear();
        CancelFrame.encode(out, 3);
        assertThat(dumpOf(out)).isEqualTo("CANCEL stream=3");

        out.clear();
        SetupFrame.encode(out, true, 500, 90_000, bufs.utf8("tok"), "x/m", "x/d", bufs.utf8("m"), null);
        assertThat(dumpOf(out)).isEqualTo("SETUP stream=0 flags=M|R|L version=1.0 keepAlive=500 lifetime=90000 "
                + "token=3 metadataMime=x/m dataMime=x/d metadata=1 data=0");

        out.clear();
        LeaseFrame.encode(out, 1000, 200, null);
        assertThat(dumpOf(out)).isEqualTo("LEASE stream=0 ttl=1000 requests=200");

        out.clear();
        KeepAliveFrame.encode(out, true, 7, bufs.of(1, 2, 3, 4, 5, 6, 7, 8));
        assertThat(dumpOf(out)).isEqualTo("KEEPALIVE stream=0 flags=R position=7 data=8");

        out.clear();
        ErrorFrame.encode(out, 9, ErrorCodes.REJECTED, "lease_exhausted");
        assertThat(dumpOf(out)).isEqualTo("ERROR stream=9 code=REJECTED message=\"lease_exhausted\"");

        out.clear();
        MetadataPushFrame.encode(out, bufs.utf8("pm"));
        assertThat(dumpOf(out)).isEqualTo("METADATA_PUSH stream=0 flags=M metadata=2");

        out.clear();
        ResumeFrame.encode(out, bufs.utf8("t"), 1, 2);
        assertThat(dumpOf(out)).isEqualTo("RESUME stream=0 version=1.0 token=1 lastReceivedServer=1 "
                + "firstAvailableClient=2");

        out.clear();
        ResumeOkFrame.encode(out, 3);
        assertThat(dumpOf(out)).isEqualTo("RESUME_OK stream=0 lastReceivedClient=3");

        out.clear();
        ExtFrame.encode(out, 0, true, 42, null, bufs.utf8("d"));
        assertThat(dumpOf(out)).isEqualTo("EXT stream=0 flags=I extendedType=42 data=1");
    }

    @Test
    void describesMalformedFramesWithTheValidatorsMessage() {
        assertThat(FrameDump.toString(bufs.of(0, 0, 0, 1, 0x20, 0, 0, 0), 0, 8))
                .isEqualTo("REQUEST_N stream=1 length=8 invalid: frame too short for REQUEST_N: length=8, need 10");
        assertThat(FrameDump.toString(bufs.of(0, 0, 0, 1, 0xAA, 0x00), 0, 6))
                .isEqualTo("UNKNOWN(0x2a) stream=1 flags=I length=6 invalid: unknown frame type 0x2a");
        assertThat(FrameDump.toString(bufs.of(1, 2), 0, 2))
                .isEqualTo("invalid frame: frame too short for header: length=2, need 6");
        assertThat(FrameDump.toString(bufs.of(1, 2), 0, 9))
                .isEqualTo("invalid frame: frame region [0, 9) outside buffer writerIndex 2");
    }

    @Test
    void namesUndefinedFlagBitsInHex() {
        // CANCEL defines no flags: generic letters for the shared bits, hex for the rest.
        assertThat(FrameDump.flagNames(FrameType.CANCEL, 0x3FF)).isEqualTo("I|M|F|N|C|0x1f");
        assertThat(FrameDump.flagNames(FrameType.SETUP, 0x0C0)).isEqualTo("R|L");
        assertThat(FrameDump.flagNames(FrameType.KEEPALIVE, 0x0C0)).isEqualTo("R|0x40");
    }

    @Test
    void keepsHostileErrorMessagesOnOneShortLine() {
        ByteBuf out = bufs.buffer();
        ErrorFrame.encode(out, 1, ErrorCodes.APPLICATION_ERROR, "line1\nline2 \"quoted\"" + "x".repeat(300));
        String dump = dumpOf(out);
        assertThat(dump).doesNotContain("\n").contains("line1?line2 'quoted'").endsWith("...\"");
        assertThat(dump.length()).isLessThan(200);
    }
}
