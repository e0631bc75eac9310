package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RunningDigestTest {

    private static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    @Test
    void hashesHeapDirectAndCompositeChunksLikeOneMessageDigestWithoutMovingThem() throws Exception {
        byte[] content = new byte[200_000];
        new Random(7).nextBytes(content);
        ByteBuf heap = ALLOC.heapBuffer().writeBytes(content, 0, 1000);
        ByteBuf direct = ALLOC.directBuffer().writeBytes(content, 1000, 99_000);
        CompositeByteBuf composite = ALLOC.compositeDirectBuffer();
        composite.addComponent(true, ALLOC.directBuffer().writeBytes(content, 100_000, 60_000));
        composite.addComponent(true, ALLOC.heapBuffer().writeBytes(content, 160_000, 40_000));
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        try {
            RunningDigest digest = new RunningDigest();
            for (ByteBuf b : new ByteBuf[] {heap, empty, direct, composite}) {
                int reader = b.readerIndex();
                int writer = b.writerIndex();
                digest.update(b);
                assertThat(b.readerIndex()).isEqualTo(reader);
                assertThat(b.writerIndex()).isEqualTo(writer);
            }

            Checksum c = digest.finish();

            String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            assertThat(c).isEqualTo(new Checksum(200_000, expected));
            assertThat(digest.finish()).isSameAs(c);
            assertThat(digest.bytes()).isEqualTo(200_000);
        } finally {
            heap.release();
            direct.release();
            composite.release();
        }
    }

    @Test
    void onlyTheReadableBytesCount() throws Exception {
        ByteBuf b = ALLOC.directBuffer().writeBytes(new byte[] {1, 2, 3, 4, 5});
        try {
            b.readerIndex(2);
            RunningDigest digest = new RunningDigest();
            digest.update(b);

            String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(new byte[] {3, 4, 5}));
            assertThat(digest.finish()).isEqualTo(new Checksum(3, expected));
        } finally {
            b.release();
        }
    }

    @Test
    void anUpdateAfterFinishIsABug() {
        RunningDigest digest = new RunningDigest();
        Checksum c = digest.finish();
        ByteBuf b = Unpooled.wrappedBuffer(new byte[1]);

        assertThatThrownBy(() -> digest.update(b)).isInstanceOf(IllegalStateException.class)
            .hasMessage("update after finish: " + c);
    }
}
