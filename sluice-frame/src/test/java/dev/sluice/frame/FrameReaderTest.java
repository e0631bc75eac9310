package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link FrameReader} against a {@link RecordingHandler}: each frame type reaches its method with the right
 * primitives and views; metadata absent, empty and present; the ignore rules; malformed frames. Every frame is
 * read behind {@link TestBuffers#PREFIX}, so views must be absolute indexes.
 */
class FrameReaderTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    /** Encodes one frame after the prefix, reads it, and returns what the handler saw. */
    private List<String> read(Consumer<ByteBuf> encoder) {
        ByteBuf buf = bufs.prefixed();
        int off = buf.writerIndex();
        encoder.accept(buf);
        buf.writeByte(0x77); // a byte after the frame, which no view may include
        RecordingHandler handler = new RecordingHandler();
        FrameReader.read(buf, off, buf.writerIndex() - off - 1, handler);
        assertThat(buf.readerIndex()).as("reader index").isZero();
        return handler.calls;
    }

    /** Reads a frame made of a header and raw body bytes (each int an unsigned byte). */
    private List<String> readRaw(int streamId, int type, int flags, int... body) {
        return read(out -> {
            FrameHeader.encode(out, streamId, type, flags);
            for (int b : body) {
                out.writeByte(b);
            }
        });
    }

    @Test
    void connectionFrames() {
        assertThat(read(out -> SetupFrame.encode(out, true, 500, 9000, null, "text/plain", "application/json",
                bufs.utf8("m"), bufs.utf8("d")))).containsExactly("setup(version=1.0, keepAlive=500, lifetime=9000,"
                + " lease=true, mime=text/plain|application/json, md='m', data='d')");
        assertThat(read(out -> ResumeFrame.encode(out, bufs.utf8("tok"), 7, 8)))
                .containsExactly("resume(token='tok', server=7, client=8, len=" + (ResumeFrame.MIN_LENGTH + 3) + ")");
        assertThat(read(out -> ResumeOkFrame.encode(out, 42))).containsExactly("resumeOk(position=42, len=14)");
        assertThat(read(out -> KeepAliveFrame.encode(out, true, 9, bufs.utf8("ping"))))
                .containsExactly("keepAlive(respond=true, position=9, data='ping')");
        assertThat(read(out -> KeepAliveFrame.encode(out, false, 0, null)))
                .containsExactly("keepAlive(respond=false, position=0, data='')");
        assertThat(read(out -> ErrorFrame.encode(out, 0, ErrorCodes.CONNECTION_CLOSE, "bye")))
                .containsExactly("error(0, CONNECTION_CLOSE, 'bye')");
        assertThat(read(out -> MetadataPushFrame.encode(out, bufs.utf8("push"))))
                .containsExactly("metadataPush(0, md='push')");
    }

    @Test
    void leaseMetadataAbsentEmptyAndPresent() {
        assertThat(read(out -> LeaseFrame.encode(out, 1000, 10, null)))
                .containsExactly("lease(ttl=1000, n=10, md=absent)");
        assertThat(read(out -> LeaseFrame.encode(out, 0, 0, bufs.utf8(""))))
                .containsExactly("lease(ttl=0, n=0, md='')");
        assertThat(read(out -> LeaseFrame.encode(out, Integer.MAX_VALUE, 3, bufs.utf8("why"))))
                .containsExactly("lease(ttl=2147483647, n=3, md='why')");
    }

    @Test
    void streamFrames() {
        assertThat(read(out -> RequestResponseFrame.encode(out, 1, false, bufs.utf8("md"), bufs.utf8("data"))))
                .containsExactly("requestResponse(1, 0x100, md='md', data='data')");
        assertThat(read(out -> RequestFnfFrame.encode(out, 3, true, null, bufs.utf8("part"))))
                .containsExactly("requestFireAndForget(3, 0x080, md=absent, data='part')");
        assertThat(read(out -> RequestStreamFrame.encode(out, 5, false, 32, null, bufs.utf8("s"))))
                .containsExactly("requestStream(5, 0x000, n=32, md=absent, data='s')");
        assertThat(read(out -> RequestChannelFrame.encode(out, 7, false, true, Long.MAX_VALUE, bufs.utf8(""),
                null))).containsExactly("requestChannel(7, 0x140, n=9223372036854775807, md='', data='')");
        assertThat(read(out -> PayloadFrame.encode(out, 9, false, true, true, null, bufs.utf8("last"))))
                .containsExactly("payload(9, 0x060, md=absent, data='last')");
        assertThat(read(out -> PayloadFrame.encode(out, 9, false, true, false, null, null)))
                .containsExactly("payload(9, 0x040, md=absent, data='')");
        assertThat(read(out -> RequestNFrame.encode(out, 11, 5))).containsExactly("requestN(11, 5)");
        assertThat(read(out -> RequestNFrame.encode(out, 11, Long.MAX_VALUE)))
                .containsExactly("requestN(11, 9223372036854775807)");
        assertThat(read(out -> CancelFrame.encode(out, 13))).containsExactly("cancel(13)");
        assertThat(read(out -> ErrorFrame.encode(out, 15, ErrorCodes.APPLICATION_ERROR, "boom \u00e9")))
                .containsExactly("error(15, APPLICATION_ERROR, 'boom \u00e9')");
        assertThat(read(out -> ExtFrame.encode(out, 0, true, 77, bufs.utf8("em"), bufs.utf8("ed"))))
                .containsExactly("ext(0, 0x300, type=77, md='em', data='ed')");
    }

    @ParameterizedTest(name = "type 0x{0}, metadata {1}")
    @CsvSource(textBlock = """
        # type, metadata: none (M clear), empty (M set, length 0) or these bytes
        04,     none
        04,     empty
        04,     mmm
        05,     none
        05,     empty
        05,     mmm
        06,     none
        06,     empty
        06,     mmm
        07,     none
        07,     empty
        07,     mmm
        0A,     none
        0A,     empty
        0A,     mmm
        3F,     none
        3F,     empty
        3F,     mmm
        """)
    void metadataAbsentEmptyAndPresentInEveryPayloadBearingType(String typeHex, String metadata) {
        int type = Integer.parseInt(typeHex, 16);
        ByteBuf md = metadata.equals("none") ? null : bufs.utf8(metadata.equals("empty") ? "" : metadata);
        String expectedMd = md == null ? "absent" : "'" + (metadata.equals("empty") ? "" : metadata) + "'";

        List<String> calls = read(out -> PayloadBearingLayout.encode(out, 21, type,
                type == FrameType.PAYLOAD ? FrameFlags.NEXT : 0, 3, md, bufs.utf8("dd")));

        String method = type == FrameType.REQUEST_FNF ? "requestFireAndForget" : camel(FrameType.name(type));
        assertThat(calls).singleElement().asString().startsWith(method + "(21, ")
                .endsWith(", md=" + expectedMd + ", data='dd')");
    }

    private static String camel(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.toLowerCase().split("_")) {
            out.append(out.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return out.toString();
    }

    @Test
    void framesWithTheIgnoreFlagThatFailValidationAreDroppedSilently() {
        // An unknown type, a metadata length past the end, a PAYLOAD without N or C: all sent with I.
        assertThat(readRaw(1, 0x20, FrameFlags.IGNORE, 1, 2, 3)).isEmpty();
        assertThat(readRaw(1, FrameType.REQUEST_RESPONSE, FrameFlags.IGNORE | FrameFlags.METADATA, 0, 0, 9, 1))
                .isEmpty();
        assertThat(readRaw(1, FrameType.PAYLOAD, FrameFlags.IGNORE)).isEmpty();
        // The I flag counts only once there is a whole header to read it from.
        ByteBuf three = bufs.of(0, 0, 0);
        RecordingHandler handler = new RecordingHandler();
        FrameReader.read(three, 0, 3, handler);
        assertThat(handler.calls).containsExactly("malformed(frame too short for header: length=3, need 6)");
    }

    @Test
    void framesOnlyWrongInAStreamIdTheSpecSaysToIgnoreAreDispatchedWithThatStreamId() {
        assertThat(readRaw(0, FrameType.CANCEL, 0)).containsExactly("cancel(0)");
        assertThat(readRaw(0, FrameType.REQUEST_N, 0, 0, 0, 0, 5)).containsExactly("requestN(0, 5)");
        assertThat(readRaw(0, FrameType.PAYLOAD, FrameFlags.NEXT | FrameFlags.COMPLETE, 'x'))
                .containsExactly("payload(0, 0x060, md=absent, data='x')");
        assertThat(readRaw(5, FrameType.METADATA_PUSH, FrameFlags.METADATA, 'm', 'd'))
                .containsExactly("metadataPush(5, md='md')");
    }

    @Test
    void framesWrongInTheirStreamIdAndMalformedOtherwiseAreMalformedForTheirBody() {
        assertThat(readRaw(0, FrameType.REQUEST_N, 0, 0, 0, 0, 0)).containsExactly("malformed(REQUEST_N with n=0)");
        assertThat(readRaw(0, FrameType.REQUEST_N, 0))
                .containsExactly("malformed(frame too short for REQUEST_N: length=6, need 10)");
        assertThat(readRaw(0, FrameType.PAYLOAD, 0, 'x'))
                .containsExactly("malformed(PAYLOAD with neither NEXT nor COMPLETE)");
        assertThat(readRaw(3, FrameType.METADATA_PUSH, 0, 'm'))
                .containsExactly("malformed(METADATA_PUSH without the M flag)");
    }

    @Test
    void otherStreamIdViolationsAreMalformed() {
        assertThat(readRaw(0, FrameType.REQUEST_RESPONSE, 0, 'x'))
                .containsExactly("malformed(REQUEST_RESPONSE on stream 0, must use a stream id > 0)");
        assertThat(readRaw(3, FrameType.KEEPALIVE, 0, 0, 0, 0, 0, 0, 0, 0, 0))
                .containsExactly("malformed(KEEPALIVE on stream 3, must use stream 0)");
        assertThat(readRaw(3, FrameType.SETUP, 0))
                .containsExactly("malformed(SETUP on stream 3, must use stream 0)");
    }

    @Test
    void malformedFramesQuoteTheValidator() {
        assertThat(readRaw(1, 0x20, 0)).containsExactly("malformed(unknown frame type 0x20)");
        assertThat(readRaw(1, FrameType.RESERVED, 0)).containsExactly("malformed(reserved frame type 0x00)");
        assertThat(readRaw(1, FrameType.REQUEST_RESPONSE, FrameFlags.METADATA, 0, 0, 9, 1))
                .containsExactly("malformed(metadata length 9 exceeds frame: 1 bytes left)");
        assertThat(readRaw(1, FrameType.REQUEST_STREAM, 0, 0, 0, 0, 0))
                .containsExactly("malformed(REQUEST_STREAM with initialRequestN=0)");
        assertThat(readRaw(1, FrameType.ERROR, 0, 0, 0, 0, 0))
                .containsExactly("malformed(ERROR with reserved error code 0x00000000)");

        ByteBuf buf = bufs.of(0, 0, 0, 1, 0x24, 0);
        RecordingHandler handler = new RecordingHandler();
        FrameReader.read(buf, 2, 6, handler);
        assertThat(handler.calls).containsExactly("malformed(frame region [2, 8) outside buffer writerIndex 6)");
    }

    @Test
    void eachFrameOfABufferIsReadAtItsOwnOffset() {
        ByteBuf buf = bufs.prefixed();
        int first = buf.writerIndex();
        PayloadFrame.encode(buf, 1, false, false, true, bufs.utf8("a"), bufs.utf8("b"));
        int second = buf.writerIndex();
        PayloadFrame.encode(buf, 3, false, false, true, bufs.utf8("c"), bufs.utf8("d"));
        RecordingHandler handler = new RecordingHandler();

        FrameReader.read(buf, first, second - first, handler);
        FrameReader.read(buf, second, buf.writerIndex() - second, handler);

        assertThat(handler.calls).containsExactly("payload(1, 0x120, md='a', data='b')",
                "payload(3, 0x120, md='c', data='d')");
    }
}
