package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link WebsocketFramer} against Netty's own WebSocket decoder: every length encoding (7, 16 and 64 bits) at its
 * edges, both sides of the copy limit, masked and not, and how many buffers a batch becomes.
 */
class WebsocketFramerTest {

    /** Each row a payload length: the edges of the 7-bit, 16-bit and 64-bit encodings and of the copy limit. */
    private static final int[] LENGTHS = {
        6, 125, 126, 127, WebsocketFramer.COPY_LIMIT, WebsocketFramer.COPY_LIMIT + 1, 65_535, 65_536, 100_000,
    };

    @Test
    void serverFramesDecodeToTheSameFramesUnmasked() {
        List<byte[]> frames = frames(LENGTHS);
        List<ByteBuf> written = frame(frames, false);
        // Copied runs and the large frames' slices, in order: header+small frames, then per large frame its header
        // (closing the run) and its slice.
        assertThat(decode(written, false)).containsExactlyElementsOf(frames);
    }

    @Test
    void clientFramesDecodeToTheSameFramesMaskedWithAFreshKeyEach() {
        List<byte[]> frames = frames(LENGTHS);
        List<ByteBuf> written = frame(frames, true);
        // Masking copies everything: one buffer for the whole batch.
        assertThat(written).hasSize(1);
        ByteBuf wire = written.get(0);
        Set<Integer> keys = new HashSet<>();
        int at = 0;
        for (byte[] f : frames) {
            assertThat(wire.getByte(at) & 0xFF).as("FIN + binary").isEqualTo(0x82);
            assertThat(wire.getByte(at + 1) & 0x80).as("mask bit").isEqualTo(0x80);
            int header = WebsocketFramer.headerLength(f.length, true);
            keys.add(wire.getInt(at + header - 4));
            at += header + f.length;
        }
        assertThat(at).isEqualTo(wire.readableBytes());
        assertThat(keys).as("masking keys").hasSize(frames.size());
        assertThat(decode(written, true)).containsExactlyElementsOf(frames);
    }

    @Test
    void aBatchOfSmallFramesIsOneBufferWithNoAllocationPerFrame() {
        int[] lengths = new int[200];
        Arrays.fill(lengths, 20);
        List<byte[]> frames = frames(lengths);
        List<ByteBuf> written = frame(frames, false);
        assertThat(written).hasSize(1);
        // 2 header bytes per 20-byte frame, in place of the 3-byte prefix.
        assertThat(written.get(0).readableBytes()).isEqualTo(200 * 22);
        assertThat(decode(written, false)).containsExactlyElementsOf(frames);
    }

    @Test
    void aLargeUnmaskedFrameIsNotCopied() {
        List<byte[]> frames = frames(new int[] {10, WebsocketFramer.COPY_LIMIT + 1, 10});
        List<ByteBuf> written = frame(frames, false);
        // [header of 10 + 10 bytes + header of the large one], [the large one, a slice], [header of 10 + 10 bytes]
        assertThat(written).extracting(ByteBuf::readableBytes)
            .containsExactly(2 + 10 + 4, WebsocketFramer.COPY_LIMIT + 1, 2 + 10);
        assertThat(decode(written, false)).containsExactlyElementsOf(frames);
    }

    /** Frames of the given lengths, each byte a function of its frame and position. */
    private static List<byte[]> frames(int[] lengths) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = new byte[lengths[i]];
            for (int j = 0; j < f.length; j++) {
                f[j] = (byte) (31 * i + j);
            }
            frames.add(f);
        }
        return frames;
    }

    /** Runs the frames, as one length-prefixed batch, through the framer; returns the buffers it wrote. */
    private static List<ByteBuf> frame(List<byte[]> frames, boolean mask) {
        ByteBuf batch = Unpooled.directBuffer();
        for (byte[] f : frames) {
            batch.writeMedium(f.length).writeBytes(f);
        }
        EmbeddedChannel out = new EmbeddedChannel();
        WebsocketFramer.write(out, batch, mask);
        out.flushOutbound();
        List<ByteBuf> written = new ArrayList<>();
        for (ByteBuf b; (b = out.readOutbound()) != null; ) {
            written.add(b);
        }
        out.finishAndReleaseAll();
        return written;
    }

    /** What Netty's decoder reads from the written buffers; releases them. */
    private static List<byte[]> decode(List<ByteBuf> written, boolean masked) {
        EmbeddedChannel in = new EmbeddedChannel(new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder()
            .maxFramePayloadLength(1 << 20).expectMaskedFrames(masked).allowMaskMismatch(false).build()));
        for (ByteBuf b : written) {
            in.writeInbound(b);
        }
        List<byte[]> frames = new ArrayList<>();
        for (Object m; (m = in.readInbound()) != null; ) {
            BinaryWebSocketFrame f = (BinaryWebSocketFrame) m;
            assertThat(f.isFinalFragment()).isTrue();
            byte[] bytes = new byte[f.content().readableBytes()];
            f.content().getBytes(f.content().readerIndex(), bytes);
            frames.add(bytes);
            f.release();
        }
        in.finishAndReleaseAll();
        return frames;
    }
}
