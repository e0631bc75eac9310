package dev.sluice.frame.metadata;

import static dev.sluice.frame.TestBuffers.ascii;
import static dev.sluice.frame.TestBuffers.readable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.TestBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rsocket.metadata.CompositeMetadata.Entry;
import io.rsocket.metadata.CompositeMetadata.ExplicitMimeTimeEntry;
import io.rsocket.metadata.CompositeMetadata.ReservedMimeTypeEntry;
import io.rsocket.metadata.CompositeMetadata.WellKnownMimeTypeEntry;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.TaggingMetadataCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Composite and routing metadata checked against rsocket-java 1.1.5's codecs, in both directions. */
class RsocketJavaMetadataOracleTest {

    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void compositeOursToTheirs() {
        ByteBuf out = bufs.buffer();
        CompositeMetadata.addRoutingEntry(out, List.of("svc.method", "caf\u00e9"));
        CompositeMetadata.addEntry(out, "application/json", bufs.utf8("{}"));
        CompositeMetadata.addEntry(out, "x/custom", bufs.utf8("c"));
        CompositeMetadata.addEntry(out, "m".repeat(128), null);
        CompositeMetadata.addEntry(out, "application/x-capnp", bufs.utf8("cp"));

        List<Entry> entries = new ArrayList<>();
        new io.rsocket.metadata.CompositeMetadata(out, false).forEach(entries::add);

        assertThat(entries).hasSize(5);
        assertThat(entries.get(0)).isInstanceOf(WellKnownMimeTypeEntry.class);
        assertThat(entries.get(0).getMimeType()).isEqualTo("message/x.rsocket.routing.v0");
        List<String> tags = new ArrayList<>();
        new io.rsocket.metadata.RoutingMetadata(entries.get(0).getContent()).forEach(tags::add);
        assertThat(tags).containsExactly("svc.method", "caf\u00e9");
        assertThat(entries.get(1).getMimeType()).isEqualTo("application/json");
        assertThat(readable(entries.get(1).getContent())).isEqualTo(ascii("{}"));
        assertThat(entries.get(2)).isInstanceOf(ExplicitMimeTimeEntry.class);
        assertThat(entries.get(2).getMimeType()).isEqualTo("x/custom");
        assertThat(readable(entries.get(2).getContent())).isEqualTo(ascii("c"));
        assertThat(entries.get(3).getMimeType()).isEqualTo("m".repeat(128));
        // Sent as a string, so rsocket-java sees the MIME type it would not know by id.
        assertThat(entries.get(4)).isInstanceOf(ExplicitMimeTimeEntry.class);
        assertThat(entries.get(4).getMimeType()).isEqualTo("application/x-capnp");
    }

    @Test
    void whyCapnpMustNotGoAsAnIdToJava() {
        ByteBuf out = bufs.buffer();
        CompositeMetadata.addEntry(out, WellKnownMimeType.APPLICATION_X_CAPNP, bufs.utf8("cp"));
        List<Entry> entries = new ArrayList<>();
        new io.rsocket.metadata.CompositeMetadata(out, false).forEach(entries::add);
        assertThat(entries.get(0)).isInstanceOf(ReservedMimeTypeEntry.class);
        assertThat(entries.get(0).getMimeType()).isNull();
        assertThat(((ReservedMimeTypeEntry) entries.get(0)).getType()).isEqualTo(0x29);
    }

    @Test
    void compositeTheirsToOurs() {
        CompositeByteBuf theirs = ALLOC.compositeBuffer();
        try {
            ByteBuf routing = TaggingMetadataCodec.createTaggingContent(ALLOC, List.of("svc.method", "v2"));
            CompositeMetadataCodec.encodeAndAddMetadata(theirs, ALLOC,
                    io.rsocket.metadata.WellKnownMimeType.MESSAGE_RSOCKET_ROUTING, routing);
            CompositeMetadataCodec.encodeAndAddMetadataWithCompression(theirs, ALLOC, "application/cbor",
                    Unpooled.wrappedBuffer(ascii("cb")));
            CompositeMetadataCodec.encodeAndAddMetadata(theirs, ALLOC, "x/custom", Unpooled.wrappedBuffer(ascii("c")));
            CompositeMetadataCodec.encodeAndAddMetadata(theirs, ALLOC, "n".repeat(128), Unpooled.EMPTY_BUFFER);

            CompositeMetadataCursor c = CompositeMetadata.cursor(theirs, theirs.readerIndex(), theirs.readableBytes());
            assertThat(c.next()).isTrue();
            assertThat(c.wellKnownMimeType()).isEqualTo(WellKnownMimeType.MESSAGE_RSOCKET_ROUTING);
            assertThat(RoutingMetadata.tags(theirs, c.contentIndex(), c.contentLength()))
                    .containsExactly("svc.method", "v2");
            assertThat(c.next()).isTrue();
            assertThat(c.mimeId()).isEqualTo(WellKnownMimeType.APPLICATION_CBOR.id());
            assertThat(TestBuffers.bytes(theirs, c.contentIndex(), c.contentLength())).isEqualTo(ascii("cb"));
            assertThat(c.next()).isTrue();
            assertThat(c.mimeType()).isEqualTo("x/custom");
            assertThat(TestBuffers.bytes(theirs, c.contentIndex(), c.contentLength())).isEqualTo(ascii("c"));
            assertThat(c.next()).isTrue();
            assertThat(c.mimeType()).isEqualTo("n".repeat(128));
            assertThat(c.contentLength()).isZero();
            assertThat(c.next()).isFalse();
        } finally {
            theirs.release();
        }
    }

    @Test
    void routingBothWays() {
        ByteBuf ours = bufs.buffer();
        RoutingMetadata.encode(ours, "a", "b.c", "\u00fcber");
        List<String> read = new ArrayList<>();
        // Their iterator stops at capacity(), so hand it a slice whose capacity is the content.
        new io.rsocket.metadata.RoutingMetadata(ours.slice()).forEach(read::add);
        assertThat(read).containsExactly("a", "b.c", "\u00fcber");

        ByteBuf theirs = TaggingMetadataCodec.createTaggingContent(ALLOC, List.of("x.y", "z"));
        try {
            assertThat(RoutingMetadata.tags(theirs, theirs.readerIndex(), theirs.readableBytes()))
                    .containsExactly("x.y", "z");
        } finally {
            theirs.release();
        }
    }
}
