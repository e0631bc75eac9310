package dev.sluice.frame.metadata;

import static dev.sluice.frame.TestBuffers.ascii;
import static dev.sluice.frame.TestBuffers.b;
import static dev.sluice.frame.TestBuffers.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.frame.TestBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CompositeMetadataTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void goldenBlobWithRoutingCustomAndJavaUnsafeEntries() {
        byte[] golden = concat(concat(b(
                0xFE, 0x00, 0x00, 0x0B,  // 0x80 | 0x7E routing, content length 11
                0x0A, 's', 'v', 'c', '.', 'm', 'e', 't', 'h', 'o', 'd', // tag: u8 length 10 + UTF-8
                0x85, 0x00, 0x00, 0x02, '{', '}', // 0x80 | 0x05 application/json
                0x02, 'x', '/', 'y',       // custom MIME "x/y": length 3 written as 3 - 1 = 2
                0x00, 0x00, 0x02, 'o', 'k',
                0x12),                     // "application/x-capnp" (19 chars) as a string: 19 - 1 = 0x12
                ascii("application/x-capnp")),
                b(0x00, 0x00, 0x01, 0x07));
        ByteBuf out = bufs.buffer();
        int written = CompositeMetadata.addRoutingEntry(out, List.of("svc.method"));
        written += CompositeMetadata.addEntry(out, "application/json", bufs.utf8("{}"));
        written += CompositeMetadata.addEntry(out, "x/y", bufs.utf8("ok"));
        written += CompositeMetadata.addEntry(out, "application/x-capnp", bufs.of(7));

        assertThat(TestBuffers.readable(out)).isEqualTo(golden);
        assertThat(written).isEqualTo(golden.length);

        CompositeMetadataCursor c = CompositeMetadata.cursor(bufs.exact(golden), 0, golden.length);
        assertThat(c.next()).isTrue();
        assertThat(c.mimeId()).isEqualTo(0x7E);
        assertThat(c.wellKnownMimeType()).isEqualTo(WellKnownMimeType.MESSAGE_RSOCKET_ROUTING);
        assertThat(c.mimeType()).isEqualTo("message/x.rsocket.routing.v0");
        assertThat(c.entryIndex()).isZero();
        assertThat(c.contentIndex()).isEqualTo(4);
        assertThat(c.contentLength()).isEqualTo(11);
        assertThat(c.next()).isTrue();
        assertThat(c.mimeTypeEquals("application/json")).isTrue();
        assertThat(c.next()).isTrue();
        assertThat(c.hasMimeId()).isFalse();
        assertThat(c.mimeId()).isEqualTo(-1);
        assertThat(c.mimeType()).isEqualTo("x/y");
        assertThat(c.mimeTypeIndex()).isEqualTo(22);
        assertThat(c.mimeTypeLength()).isEqualTo(3);
        assertThat(c.mimeTypeEquals("x/y")).isTrue();
        assertThat(c.mimeTypeEquals("x/z")).isFalse();
        assertThat(c.mimeTypeEquals("x/yy")).isFalse();
        assertThat(c.next()).isTrue();
        assertThat(c.mimeType()).isEqualTo("application/x-capnp");
        assertThat(c.contentLength()).isEqualTo(1);
        assertThat(c.next()).isFalse();
        assertThat(c.next()).isFalse();
    }

    @Test
    void customMimeLengthsOneAnd128AreTheEdgesOfTheLengthMinusOneEncoding() {
        ByteBuf out = bufs.buffer();
        CompositeMetadata.addCustomEntry(out, "a", null);
        CompositeMetadata.addCustomEntry(out, "m".repeat(128), null);
        assertThat(out.getByte(0)).isEqualTo((byte) 0x00);
        assertThat(out.getByte(5)).isEqualTo((byte) 0x7F);

        CompositeMetadataCursor c = CompositeMetadata.cursor(out, 0, out.writerIndex());
        assertThat(c.next()).isTrue();
        assertThat(c.mimeType()).isEqualTo("a");
        assertThat(c.contentLength()).isZero();
        assertThat(c.next()).isTrue();
        assertThat(c.mimeType()).isEqualTo("m".repeat(128));
        assertThat(c.next()).isFalse();
    }

    @Test
    void wellKnownStringsCanBeForcedToStringForm() {
        ByteBuf out = bufs.buffer();
        CompositeMetadata.addCustomEntry(out, "application/json", null);
        CompositeMetadataCursor c = CompositeMetadata.cursor(out, 0, out.writerIndex());
        assertThat(c.next()).isTrue();
        assertThat(c.hasMimeId()).isFalse();
        assertThat(c.mimeType()).isEqualTo("application/json");
    }

    @Test
    void explicitIdsMayBeUnassigned() {
        ByteBuf out = bufs.buffer();
        CompositeMetadata.addEntry(out, 0x50, bufs.utf8("x"));
        CompositeMetadata.addEntry(out, WellKnownMimeType.APPLICATION_X_FLATBUFFERS, null);
        CompositeMetadataCursor c = CompositeMetadata.cursor(out, 0, out.writerIndex());
        assertThat(c.next()).isTrue();
        assertThat(c.mimeId()).isEqualTo(0x50);
        assertThat(c.mimeType()).isNull();
        assertThat(c.wellKnownMimeType()).isNull();
        assertThat(c.mimeTypeEquals("anything")).isFalse();
        assertThat(c.next()).isTrue();
        assertThat(c.mimeId()).isEqualTo(0x2A);
        assertThat(c.mimeType()).isEqualTo("application/x-flatbuffers");
    }

    @Test
    void entryLengthMatchesWhatIsWritten() {
        for (String mime : new String[] {"application/json", "x/y", "application/x-capnp"}) {
            ByteBuf out = bufs.buffer();
            int written = CompositeMetadata.addEntry(out, mime, bufs.utf8("12345"));
            assertThat(CompositeMetadata.entryLength(mime, 5)).as(mime).isEqualTo(written).isEqualTo(out.writerIndex());
        }
        assertThat(CompositeMetadata.entryLength("x/y", Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void refusesWhatCannotBeEncodedAndWritesNothing() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, "", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("custom MIME type is empty, need 1..128 US-ASCII chars");
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, "m".repeat(129), null))
                .hasMessageStartingWith("custom MIME type is 129 chars, max 128: mmm");
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, "t\u00ebxt/x", null))
                .hasMessage("custom MIME type is not US-ASCII at index 1: t\u00ebxt/x");
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, (String) null, null))
                .hasMessage("custom MIME type is null");
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, 128, null))
                .hasMessage("well-known MIME id outside 0..127: 128");
        ByteBuf huge = bufs.buffer(0x1000000).writerIndex(0x1000000);
        assertThatThrownBy(() -> CompositeMetadata.addEntry(out, "x/y", huge))
                .hasMessage("composite metadata content length 16777216 exceeds 16777215");
        assertThat(out.writerIndex()).isZero();
    }

    static List<Arguments> malformed() {
        return List.of(
                Arguments.of("custom MIME runs past the end", b(0x05, 'a', 'b'),
                        "composite metadata entry at index 4: MIME type length 6 exceeds 2 bytes left"),
                Arguments.of("no content length after an id", b(0x85, 0x00),
                        "composite metadata entry at index 4: content length field needs 3 bytes, 1 left"),
                Arguments.of("no content length after a custom MIME", b(0x00, 'a'),
                        "composite metadata entry at index 4: content length field needs 3 bytes, 0 left"),
                Arguments.of("content runs past the end", b(0x85, 0x00, 0x00, 0x09, 1, 2),
                        "composite metadata entry at index 4: content length 9 exceeds 2 bytes left"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedInputIsAClearExceptionNotAnIndexError(String name, byte[] entry, String message) {
        // A valid first entry (4 bytes, after the 3-byte prefix), then the broken one at index 4 of the metadata
        // (7 of the buffer: the message counts from the metadata's start), in a buffer that ends where it ends.
        byte[] bytes = concat(TestBuffers.PREFIX, concat(b(0x81, 0x00, 0x00, 0x00), entry));
        CompositeMetadataCursor c = CompositeMetadata.cursor(bufs.exact(bytes), 3, bytes.length - 3);
        assertThat(c.next()).isTrue();
        assertThat(c.mimeId()).isEqualTo(1);
        assertThatThrownBy(c::next).isInstanceOf(MalformedMetadataException.class).hasMessage(message);
        assertThat(c.next()).as("exhausted after a failure").isFalse();
        assertThat(c.contentIndex()).isEqualTo(-1);
    }

    @Test
    void wrapRefusesARangeOutsideTheBuffer() {
        ByteBuf buf = bufs.of(1, 2, 3);
        CompositeMetadataCursor c = new CompositeMetadataCursor();
        assertThatThrownBy(() -> c.wrap(buf, 2, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("composite metadata range [2, 4) outside buffer writerIndex 3");
        assertThat(c.next()).as("a cursor never wrapped has no entries").isFalse();
        assertThat(c.wrap(buf, 0, 0).next()).isFalse();
    }

    @Test
    void cursorIsReusableAcrossBuffers() {
        ByteBuf a = bufs.buffer();
        CompositeMetadata.addEntry(a, "x/a", null);
        ByteBuf b = bufs.buffer();
        CompositeMetadata.addEntry(b, "application/cbor", null);
        CompositeMetadataCursor c = new CompositeMetadataCursor();
        assertThat(c.wrap(a, 0, a.writerIndex()).next()).isTrue();
        assertThat(c.mimeType()).isEqualTo("x/a");
        assertThat(c.wrap(b, 0, b.writerIndex()).next()).isTrue();
        assertThat(c.mimeType()).isEqualTo("application/cbor");
    }

    @Test
    void randomBytesOnlyEverFailWithMalformedMetadata() {
        Random random = new Random(0xC0FFEE);
        CompositeMetadataCursor c = new CompositeMetadataCursor();
        int complete = 0;
        int malformed = 0;
        for (int i = 0; i < 10_000; i++) {
            byte[] bytes = plausibleEntries(random);
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            try {
                c.wrap(buf, 0, bytes.length);
                while (c.next()) {
                    assertThat(c.contentIndex() + c.contentLength()).isLessThanOrEqualTo(bytes.length);
                    c.mimeType();
                }
                complete++;
            } catch (MalformedMetadataException e) {
                malformed++;
            }
        }
        assertThat(complete).isGreaterThan(1000);
        assertThat(malformed).isGreaterThan(1000);
    }

    /** Zero to three entries whose lengths are right or slightly off, sometimes truncated or with junk after. */
    private static byte[] plausibleEntries(Random r) {
        ByteBuf b = io.netty.buffer.ByteBufAllocator.DEFAULT.buffer();
        int entries = r.nextInt(4);
        for (int e = 0; e < entries; e++) {
            if (r.nextBoolean()) {
                b.writeByte(0x80 | r.nextInt(128));
            } else {
                int n = 1 + r.nextInt(4);
                b.writeByte(n - 1);
                for (int i = 0; i < n; i++) {
                    b.writeByte('a' + r.nextInt(26));
                }
            }
            int content = r.nextInt(5);
            b.writeMedium(r.nextInt(5) == 0 ? content + r.nextInt(3) - 1 : content);
            for (int i = 0; i < content; i++) {
                b.writeByte(r.nextInt(256));
            }
        }
        switch (r.nextInt(4)) {
            case 0:
                b.writerIndex(b.writerIndex() == 0 ? 0 : r.nextInt(b.writerIndex()));
                break;
            case 1:
                b.writeByte(r.nextInt(256));
                break;
            default:
                break;
        }
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }
}
