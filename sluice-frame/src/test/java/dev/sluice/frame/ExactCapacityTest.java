package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.RoutingMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code encodedLength} is exact, so a buffer of exactly that size and maximum capacity must take the frame: the
 * engine sizes buffers this way. (Netty's plain UTF-8 writer reserves three bytes per char first and would fail.)
 */
class ExactCapacityTest {

    private static final String NON_ASCII = "caf\u00e9 \ud83d\ude80 lease_exhausted";

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    private ByteBuf exactly(int n) {
        return bufs.track(ByteBufAllocator.DEFAULT.buffer(n, n));
    }

    @Test
    void everyFrameFitsABufferOfItsEncodedLength() {
        ByteBuf md = bufs.utf8("md");
        ByteBuf data = bufs.utf8("data");

        ByteBuf error = exactly(ErrorFrame.encodedLength(3, ErrorCodes.APPLICATION_ERROR, NON_ASCII));
        ErrorFrame.encode(error, 3, ErrorCodes.APPLICATION_ERROR, NON_ASCII);
        assertThat(error.writableBytes()).isZero();
        assertThat(ErrorFrame.message(error, 0, error.writerIndex())).isEqualTo(NON_ASCII);

        String loneSurrogate = "a\ud800b";
        ByteBuf odd = exactly(ErrorFrame.encodedLength(3, ErrorCodes.INVALID, loneSurrogate));
        ErrorFrame.encode(odd, 3, ErrorCodes.INVALID, loneSurrogate);
        assertThat(odd.writableBytes()).isZero();
        assertThat(ErrorFrame.message(odd, 0, odd.writerIndex())).isEqualTo("a?b");

        ByteBuf setup = exactly(SetupFrame.encodedLength(true, 1, 1, md, "a/b", "c/d", md, data));
        SetupFrame.encode(setup, true, 1, 1, md, "a/b", "c/d", md, data);
        assertThat(setup.writableBytes()).isZero();

        ByteBuf payload = exactly(PayloadFrame.encodedLength(md, data));
        PayloadFrame.encode(payload, 1, false, true, true, md, data);
        assertThat(payload.writableBytes()).isZero();

        ByteBuf stream = exactly(RequestStreamFrame.encodedLength(md, data));
        RequestStreamFrame.encode(stream, 1, false, 1, md, data);
        assertThat(stream.writableBytes()).isZero();

        ByteBuf lease = exactly(LeaseFrame.encodedLength(1, 1, md));
        LeaseFrame.encode(lease, 1, 1, md);
        assertThat(lease.writableBytes()).isZero();

        ByteBuf keepAlive = exactly(KeepAliveFrame.encodedLength(true, 0, data));
        KeepAliveFrame.encode(keepAlive, true, 0, data);
        assertThat(keepAlive.writableBytes()).isZero();

        ByteBuf resume = exactly(ResumeFrame.encodedLength(md, 0, 0));
        ResumeFrame.encode(resume, md, 0, 0);
        assertThat(resume.writableBytes()).isZero();
    }

    @Test
    void metadataFitsABufferOfItsEncodedLength() {
        List<String> tags = List.of("svc.\u00fcber", "v2");
        ByteBuf routing = exactly(RoutingMetadata.encodedLength(tags));
        RoutingMetadata.encode(routing, tags);
        assertThat(routing.writableBytes()).isZero();
        assertThat(RoutingMetadata.tags(routing, 0, routing.writerIndex())).isEqualTo(tags);

        ByteBuf tag = exactly(RoutingMetadata.tagLength("\u00e9\u00e9\u00e9"));
        RoutingMetadata.addTag(tag, "\u00e9\u00e9\u00e9");
        assertThat(tag.writableBytes()).isZero();

        ByteBuf entry = exactly(4 + RoutingMetadata.encodedLength(tags));
        CompositeMetadata.addRoutingEntry(entry, tags);
        assertThat(entry.writableBytes()).isZero();

        ByteBuf custom = exactly(CompositeMetadata.entryLength("x/custom", 2));
        CompositeMetadata.addEntry(custom, "x/custom", bufs.utf8("ab"));
        assertThat(custom.writableBytes()).isZero();
    }
}
