package dev.sluice.frame.metadata;

import static dev.sluice.frame.TestBuffers.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.frame.TestBuffers;
import io.netty.buffer.ByteBuf;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RoutingMetadataTest {

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void encodesLengthPrefixedUtf8Tags() {
        ByteBuf out = bufs.buffer();
        int written = RoutingMetadata.encode(out, "a.b", "\u00e9");
        assertThat(TestBuffers.readable(out)).isEqualTo(b(0x03, 'a', '.', 'b', 0x02, 0xC3, 0xA9));
        assertThat(written).isEqualTo(7).isEqualTo(RoutingMetadata.encodedLength(List.of("a.b", "\u00e9")));
        assertThat(RoutingMetadata.tags(out, 0, out.writerIndex())).containsExactly("a.b", "\u00e9");
    }

    @Test
    void acceptsTagsUpTo255BytesAndRefusesLongerOrEmptyOnesBeforeWriting() {
        ByteBuf out = bufs.buffer();
        assertThat(RoutingMetadata.addTag(out, "t".repeat(255))).isEqualTo(256);
        assertThat(out.getByte(0)).isEqualTo((byte) 255);
        out.clear();

        assertThatThrownBy(() -> RoutingMetadata.encode(out, "ok", "t".repeat(256)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("routing tag is 256 UTF-8 bytes, max 255: tttt");
        assertThatThrownBy(() -> RoutingMetadata.encode(out, "ok", ""))
                .hasMessage("routing tag is empty");
        assertThatThrownBy(() -> RoutingMetadata.addTag(out, "\u00e9".repeat(128)))
                .hasMessageStartingWith("routing tag is 256 UTF-8 bytes, max 255");
        assertThatThrownBy(() -> RoutingMetadata.encode(out, (List<String>) null))
                .hasMessage("routing tags are null");
        assertThat(out.writerIndex()).as("nothing written when any tag is bad").isZero();
    }

    @Test
    void cursorReadsWithoutAllocatingAndComparesTags() {
        ByteBuf out = bufs.prefixed();
        int start = out.writerIndex();
        RoutingMetadata.encode(out, List.of("svc.method", "v2", "caf\u00e9"));
        RoutingMetadataCursor c = RoutingMetadata.cursor(out, start, out.writerIndex() - start);
        assertThat(c.next()).isTrue();
        assertThat(c.tagIndex()).isEqualTo(start + 1);
        assertThat(c.tagLength()).isEqualTo(10);
        assertThat(c.tagEquals("svc.method")).isTrue();
        assertThat(c.tagEquals("svc.metho")).isFalse();
        assertThat(c.tagEquals("svc.methoD")).isFalse();
        assertThat(c.next()).isTrue();
        assertThat(c.tag()).isEqualTo("v2");
        assertThat(c.next()).isTrue();
        assertThat(c.tagEquals("caf\u00e9")).isTrue();
        assertThat(c.tagEquals("cafe")).isFalse();
        assertThat(c.next()).isFalse();
        assertThat(c.tagEquals("v2")).isFalse();
    }

    @Test
    void emptyTagsOnTheWireReadAsEmptyStrings() {
        assertThat(RoutingMetadata.tags(bufs.of(0x00, 0x01, 'x'), 0, 3)).containsExactly("", "x");
    }

    @Test
    void truncatedTagIsMalformedMetadata() {
        ByteBuf buf = bufs.exact(b(0x01, 'a', 0x05, 'b', 'c'));
        RoutingMetadataCursor c = RoutingMetadata.cursor(buf, 0, 5);
        assertThat(c.next()).isTrue();
        assertThatThrownBy(c::next).isInstanceOf(MalformedMetadataException.class)
                .hasMessage("routing tag at index 2 has length 5, but only 2 bytes left");
        assertThat(c.next()).isFalse();
        assertThatThrownBy(() -> RoutingMetadata.tags(buf, 0, 5)).isInstanceOf(MalformedMetadataException.class);
        assertThatThrownBy(() -> RoutingMetadata.cursor(buf, 3, 3))
                .hasMessage("routing metadata range [3, 6) outside buffer writerIndex 5");
    }
}
