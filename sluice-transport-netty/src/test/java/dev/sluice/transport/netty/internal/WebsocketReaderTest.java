package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WebsocketReader} on frames written by Netty's own encoder, masked (a server reading a client) and not (a
 * client reading a server): every length encoding at its edges, whole or arriving one byte at a time, fragments with a
 * control frame between them; what it answers (pong, close status) as Netty's decoder reads it; and that it allocates
 * nothing per frame.
 */
class WebsocketReaderTest {

    /** Each row a payload length: the edges of the 7-bit, 16-bit and 64-bit length encodings. */
    private static final int[] LENGTHS = {0, 1, 6, 125, 126, 127, 65_535, 65_536, 100_000};

    @Test
    void serverReadsMaskedFramesWholeAndByteByByte() {
        List<byte[]> frames = payloads(LENGTHS);
        byte[] wire = encode(true, binaries(frames));
        assertThat(read(true, wire, wire.length).frames).containsExactlyElementsOf(frames);
        assertThat(read(true, wire, 1).frames).containsExactlyElementsOf(frames);
    }

    @Test
    void clientReadsUnmaskedFramesWholeAndInOddChunks() {
        List<byte[]> frames = payloads(LENGTHS);
        byte[] wire = encode(false, binaries(frames));
        assertThat(read(false, wire, wire.length).frames).containsExactlyElementsOf(frames);
        assertThat(read(false, wire, 7).frames).containsExactlyElementsOf(frames);
    }

    @Test
    void fragmentsAreGatheredAndAPingBetweenThemIsAnswered() {
        byte[] whole = payloads(new int[] {300}).get(0);
        byte[] wire = encode(true, List.of(
            new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(whole, 0, 100)),
            new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {7, 8, 9})),
            new ContinuationWebSocketFrame(false, 0, Unpooled.wrappedBuffer(whole, 100, 100)),
            new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(whole, 200, 100))));
        Reading r = read(true, wire, 5);
        assertThat(r.frames).containsExactly(whole);
        assertThat(r.answers).containsExactly(PongWebSocketFrame.class);
        assertThat(r.answerData.get(0)).containsExactly(7, 8, 9);
    }

    @Test
    void textIsATransportErrorAndACloseWith1003() {
        byte[] wire = encode(true, List.of(new TextWebSocketFrame("hello")));
        Reading r = read(true, wire, wire.length);
        assertThat(r.frames).isEmpty();
        assertThat(r.errors).containsExactly("text message received: RSocket frames travel in binary messages");
        assertThat(r.closeCodes).containsExactly(1003);
    }

    @Test
    void aFrameOverTheLimitIsRefusedFromItsHeader() {
        byte[] wire = encode(true, binaries(payloads(new int[] {2000})));
        // Only the header and mask arrive: the length alone condemns the frame.
        Reading r = read(true, Arrays.copyOf(wire, 8), 8, 1024);
        assertThat(r.errors).containsExactly("WebSocket frame exceeds maxFrameLength=1024");
        assertThat(r.closeCodes).containsExactly(1009);
    }

    @Test
    void aServersFrameMaskedIsAProtocolError() {
        // A client reading masked frames: RFC 6455 forbids a server to mask.
        byte[] wire = encode(true, binaries(payloads(new int[] {10})));
        Reading r = read(false, wire, wire.length);
        assertThat(r.errors).containsExactly("WebSocket protocol error: received a frame that is not masked as"
            + " expected");
        assertThat(r.closeCodes).containsExactly(1002);
    }

    @Test
    void aLengthNotInItsShortestEncodingIsAProtocolError() {
        // 16-bit length field holding 5, unmasked, to a client.
        byte[] wire = {(byte) 0x82, 126, 0, 5, 1, 2, 3, 4, 5};
        Reading r = read(false, wire, wire.length);
        assertThat(r.errors).containsExactly("WebSocket protocol error: invalid data frame length (not using"
            + " minimal length encoding)");
    }

    @Test
    void unfragmentedFramesAllocateNothingPerFrame() {
        // 10,000 masked 140-byte frames in one read: the reader unmasks and delivers them in place.
        List<WebSocketFrame> frames = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            frames.add(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[140])));
        }
        byte[] wire = encode(true, frames);
        long warm = allocatedWhileReading(wire);
        long measured = allocatedWhileReading(wire);
        // What one read costs whatever it holds (the channel's machinery), not bytes per frame.
        assertThat(measured).as("bytes allocated reading 10,000 frames (first run: %s)", warm).isLessThan(10_000);
    }

    /** Bytes this thread allocated while a reader consumed {@code wire} as one read (the channel set up first). */
    private static long allocatedWhileReading(byte[] wire) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Reading r = new Reading();
        r.reader = new WebsocketReader(1 << 20, true);
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocket13FrameEncoder(false), r.reader);
        r.reader.handler(r);
        r.keepFrames = false;
        // Not a pooled or leak-tracked buffer: the measure is the reader's, not the allocator's.
        ByteBuf in = Unpooled.wrappedBuffer(wire.clone());
        long before = threads.getCurrentThreadAllocatedBytes();
        ch.writeInbound(in);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(r.count).isEqualTo(10_000);
        ch.finishAndReleaseAll();
        return allocated;
    }

    // ---------------------------------------------------------------------------------------------------------

    private static final class Reading implements FrameHandler {
        final List<byte[]> frames = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        /** What the reader wrote back: the frames' types, their data, and the close frames' status codes. */
        final List<Class<?>> answers = new ArrayList<>();
        final List<byte[]> answerData = new ArrayList<>();
        final List<Integer> closeCodes = new ArrayList<>();
        WebsocketReader reader;
        boolean keepFrames = true;
        int count;

        @Override
        public void onFrame(ByteBuf buf, int offset, int length) {
            count++;
            if (keepFrames) {
                byte[] b = new byte[length];
                buf.getBytes(offset, b);
                frames.add(b);
            }
        }

        @Override
        public void onReadComplete() {
        }

        @Override
        public void onWritabilityChanged(boolean writable) {
        }

        @Override
        public void onTransportError(String message) {
            errors.add(message);
            // As the engine does: write its ERROR frame (not modelled here), then close the transport.
            reader.close();
        }

        @Override
        public void onClose(Throwable cause) {
        }
    }

    private static Reading read(boolean server, byte[] wire, int chunk) {
        return read(server, wire, chunk, 1 << 20);
    }

    /** Feeds {@code wire} to a reader in chunks of {@code chunk} bytes; decodes what it writes back. */
    private static Reading read(boolean server, byte[] wire, int chunk, int maxFrameLength) {
        Reading r = new Reading();
        r.reader = new WebsocketReader(maxFrameLength, server);
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocket13FrameEncoder(!server), r.reader);
        r.reader.handler(r);
        for (int at = 0; at < wire.length && ch.isOpen(); at += chunk) {
            // A copy: the reader unmasks in place.
            ch.writeInbound(Unpooled.copiedBuffer(wire, at, Math.min(chunk, wire.length - at)));
        }
        if (ch.isOpen()) {
            ch.flushOutbound();
        }
        EmbeddedChannel answers = new EmbeddedChannel(new WebSocket13FrameDecoder(WebSocketDecoderConfig
            .newBuilder().expectMaskedFrames(!server).build()));
        for (Object o; (o = ch.readOutbound()) != null; ) {
            answers.writeInbound(o);
        }
        for (WebSocketFrame f; (f = answers.readInbound()) != null; ) {
            byte[] b = new byte[f.content().readableBytes()];
            f.content().getBytes(f.content().readerIndex(), b);
            r.answers.add(f.getClass());
            r.answerData.add(b);
            if (f instanceof CloseWebSocketFrame c) {
                r.closeCodes.add(c.statusCode());
            }
            f.release();
        }
        answers.finishAndReleaseAll();
        ch.finishAndReleaseAll();
        return r;
    }

    private static List<byte[]> payloads(int[] lengths) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = new byte[lengths[i]];
            for (int j = 0; j < f.length; j++) {
                f[j] = (byte) (17 * i + j);
            }
            frames.add(f);
        }
        return frames;
    }

    private static List<WebSocketFrame> binaries(List<byte[]> payloads) {
        List<WebSocketFrame> frames = new ArrayList<>();
        for (byte[] p : payloads) {
            frames.add(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(p)));
        }
        return frames;
    }

    /** The bytes Netty's encoder writes for {@code frames}, masked or not. */
    private static byte[] encode(boolean mask, List<WebSocketFrame> frames) {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocket13FrameEncoder(mask));
        for (WebSocketFrame f : frames) {
            ch.writeOutbound(f);
        }
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            all.writeBytes(b);
            b.release();
        }
        ch.finishAndReleaseAll();
        byte[] wire = new byte[all.readableBytes()];
        all.readBytes(wire);
        all.release();
        return wire;
    }
}
