package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CopiedPayloadTest {

    @Test
    void aCopyOutlivesItsSourceAndNeedsNoRelease() {
        Payload source = Payload.create("hello", "md");
        Payload copy = Payload.copyOf(source);
        assertThat(source.release()).isTrue();
        // Read after the source is gone: the copy holds its own bytes.
        assertThat(copy.dataUtf8()).isEqualTo("hello");
        assertThat(copy.metadataUtf8()).isEqualTo("md");
        assertThat(copy.hasMetadata()).isTrue();
        // Never released: the leak detector (paranoid in tests) has nothing to report, as nothing is pooled.
    }

    @Test
    void releasingACopyDoesNothingHoweverOftenItHappens() {
        Payload source = Payload.create("x");
        Payload copy = Payload.copyOf(source);
        source.release();
        assertThat(copy.release()).isFalse();
        assertThat(copy.release(3)).isFalse();
        assertThat(copy.refCnt()).isEqualTo(1);
        assertThat(copy.retain()).isSameAs(copy);
        assertThat(copy.dataUtf8()).isEqualTo("x");
    }

    @Test
    void absentMetadataStaysAbsentAndEmptyDataStaysEmpty() {
        Payload source = Payload.create("");
        Payload copy = Payload.copyOf(source);
        source.release();
        assertThat(copy.hasMetadata()).isFalse();
        assertThat(copy.metadata().readableBytes()).isZero();
        assertThat(copy.data().readableBytes()).isZero();
    }

    @Test
    void copyAndReleaseFreesTheSourceBufferAndKeepsTheBytes() {
        ByteBuf direct = ByteBufAllocator.DEFAULT.directBuffer().writeBytes("frame".getBytes(StandardCharsets.UTF_8));
        Payload received = Payload.create(direct);
        Payload copy = CopiedPayload.copyAndRelease(received);
        assertThat(direct.refCnt()).isZero();
        assertThat(copy.dataUtf8()).isEqualTo("frame");
        assertThat(CopiedPayload.copyAndRelease(copy)).isSameAs(copy);
    }

    @Test
    void theSourceReaderIndexIsLeftWhereItWas() {
        Payload source = Payload.create("abc");
        Payload.copyOf(source);
        assertThat(source.data().readerIndex()).isZero();
        source.release();
    }
}
