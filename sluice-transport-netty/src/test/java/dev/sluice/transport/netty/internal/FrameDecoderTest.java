package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.transport.FrameHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameDecoder} in an {@link EmbeddedChannel}: frames split across reads anywhere, several frames in one
 * read, a length prefix over the limit, a zero-length frame, closing with half a frame buffered, bytes and failures
 * before the engine starts, a TLS ClientHello on a plaintext port. The inbound
 * buffers come from the pooled allocator, so the leak gate sees anything the decoder fails to release.
 */
class FrameDecoderTest {

    private static final int MAX_FRAME_LENGTH = 1000;

    private final Recorder recorder = new Recorder();
    private final FrameDecoder decoder = new FrameDecoder(MAX_FRAME_LENGTH);
    private final EmbeddedChannel channel = new EmbeddedChannel(decoder);

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    /** Three frames of 6, 1 and 300 bytes, each behind its 3-byte length prefix, as one byte array. */
    private static byte[] threeFrames() {
        ByteBuf b = ByteBufAllocator.DEFAULT.heapBuffer();
        try {
            for (int length : new int[] {6, 1, 300}) {
                b.writeMedium(length);
                for (int i = 0; i < length; i++) {
                    b.writeByte(length + i);
                }
            }
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    private static byte[] frame(int length) {
        byte[] f = new byte[length];
        for (int i = 0; i < length; i++) {
            f[i] = (byte) (length + i);
        }
        return f;
    }

    /** Writes {@code bytes[from, to)} as one read, in a pooled (leak-tracked) buffer the decoder releases. */
    private void read(byte[] bytes, int from, int to) {
        channel.writeInbound(ByteBufAllocator.DEFAULT.buffer(to - from).writeBytes(bytes, from, to - from));
    }

    @Test
    void framesSplitAcrossTwoReadsAtEveryByteBoundaryArriveWhole() {
        byte[] stream = threeFrames();
        for (int split = 1; split < stream.length; split++) {
            FrameDecoder fresh = new FrameDecoder(MAX_FRAME_LENGTH);
            Recorder r = new Recorder();
            fresh.handler(r);
            EmbeddedChannel ch = new EmbeddedChannel(fresh);

            ch.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(stream, 0, split));
            ch.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(stream, split, stream.length - split));

            assertThat(r.frames).as("split at %d", split).containsExactly(frame(6), frame(1), frame(300));
            assertThat(r.readCompletes).isEqualTo(2);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void framesFedOneByteAtATimeArriveWhole() {
        decoder.handler(recorder);
        byte[] stream = threeFrames();
        for (int i = 0; i < stream.length; i++) {
            read(stream, i, i + 1);
        }
        assertThat(recorder.frames).containsExactly(frame(6), frame(1), frame(300));
        assertThat(recorder.readCompletes).isEqualTo(stream.length);
    }

    @Test
    void severalFramesInOneReadArriveInOrderBeforeOneReadComplete() {
        decoder.handler(recorder);
        byte[] stream = threeFrames();
        read(stream, 0, stream.length);
        assertThat(recorder.frames).containsExactly(frame(6), frame(1), frame(300));
        assertThat(recorder.events).containsExactly("frame 6", "frame 1", "frame 300", "readComplete");
    }

    @Test
    void readsThatEndInsideFramesKeepTheBufferAtAboutOneReadsSize() {
        decoder.handler(recorder);
        // 103-byte frames (100 behind the prefix) in reads of 1,000 bytes: every read but a few ends mid-frame.
        // An epoll loop makes up to 16 reads before it signals the read complete, so the reads come in runs of 16
        // (writeInbound would end each with a read complete, where Netty tidies the buffer anyway).
        int frames = 2_000;
        ByteBuf stream = ByteBufAllocator.DEFAULT.heapBuffer(frames * 103);
        for (int i = 0; i < frames; i++) {
            stream.writeMedium(100).writeBytes(frame(100));
        }
        byte[] bytes = ByteBufUtil.getBytes(stream);
        stream.release();
        int largest = 0;
        int reads = 0;
        for (int from = 0; from < bytes.length; from += 1000) {
            int to = Math.min(bytes.length, from + 1000);
            channel.pipeline().fireChannelRead(ByteBufAllocator.DEFAULT.buffer(to - from).writeBytes(bytes, from,
                to - from));
            largest = Math.max(largest, decoder.bufferedCapacity());
            if (++reads % 16 == 0) {
                channel.pipeline().fireChannelReadComplete();
            }
        }
        channel.pipeline().fireChannelReadComplete();
        assertThat(recorder.frames).hasSize(frames).allSatisfy(f -> assertThat(f).isEqualTo(frame(100)));
        // Left to Netty's default (the unread tail moved only every 16 reads) it grows past 16 reads' worth.
        assertThat(largest).isLessThanOrEqualTo(2 * 1024);
    }

    @Test
    void aZeroLengthFrameIsPassedOnForTheEngineToRefuse() {
        decoder.handler(recorder);
        byte[] stream = {0, 0, 0, 0, 0, 1, 42};
        read(stream, 0, stream.length);
        assertThat(recorder.frames).containsExactly(new byte[0], new byte[] {42});
    }

    @Test
    void aLengthPrefixOverTheLimitIsATransportErrorAndEndsDecoding() {
        decoder.handler(recorder);
        byte[] stream = {0, 0, 1, 7, // a good frame first
            0, 0x03, (byte) 0xE9, 1, 2, 3, // 1001 > 1000
            0, 0, 1, 9};
        read(stream, 0, stream.length);
        read(new byte[] {0, 0, 1, 8}, 0, 4); // bytes after the failure are dropped unread

        assertThat(recorder.frames).containsExactly(new byte[] {7});
        assertThat(recorder.errors).containsExactly("frame length 1001 exceeds maxFrameLength=1000");
    }

    @Test
    void aFrameExactlyAtTheLimitIsAccepted() {
        decoder.handler(recorder);
        byte[] atTheLimit = new byte[3 + MAX_FRAME_LENGTH];
        atTheLimit[1] = 0x03; // 0x0003E8 = 1000
        atTheLimit[2] = (byte) 0xE8;
        read(atTheLimit, 0, atTheLimit.length);
        assertThat(recorder.frames).singleElement().satisfies(f -> assertThat(f).hasSize(MAX_FRAME_LENGTH));
        assertThat(recorder.errors).isEmpty();
    }

    @Test
    void closingWithHalfAFrameBufferedReleasesItAndReportsTheClose() {
        decoder.handler(recorder);
        byte[] stream = threeFrames();
        read(stream, 0, 3 + 6 + 3 + 1 + 3 + 100); // two frames and a third of the last

        channel.close();

        assertThat(recorder.frames).containsExactly(frame(6), frame(1));
        assertThat(recorder.closes).containsExactly("closed: null");
    }

    @Test
    void bytesBeforeAHandlerIsSetAreKeptAndDecodedInOrderOnceItIs() {
        // Behind TLS, the read that ends the handshake may carry the peer's first frames before the engine starts.
        byte[] stream = threeFrames();
        read(stream, 0, 3 + 6 + 2);
        decoder.handler(recorder);
        assertThat(recorder.frames).as("decoded in a task of its own, after the caller's").isEmpty();
        channel.runPendingTasks();
        read(stream, 3 + 6 + 2, stream.length);
        assertThat(recorder.frames).containsExactly(frame(6), frame(1), frame(300));
        assertThat(recorder.events).containsExactly("frame 6", "readComplete", "frame 1", "frame 300",
            "readComplete");
    }

    @Test
    void aFailureBeforeAHandlerIsSetIsReportedToItWhenItIs() {
        channel.pipeline().fireExceptionCaught(new IOException("TLS handshake failed: the server requires a client"
            + " certificate"));
        assertThat(channel.isOpen()).isFalse();
        decoder.handler(recorder);
        assertThat(recorder.closes).containsExactly("closed: java.io.IOException: TLS handshake failed: the server"
            + " requires a client certificate");
    }

    @Test
    void aChannelClosedBeforeAHandlerIsSetIsReportedClosedWhenItIs() {
        channel.close();
        decoder.handler(recorder);
        assertThat(recorder.closes).containsExactly("closed: null");
    }

    @Test
    void aTlsClientHelloAsTheFirstFrameIsATransportError() {
        FrameDecoder large = new FrameDecoder(16_777_215);
        Recorder r = new Recorder();
        large.handler(r);
        EmbeddedChannel ch = new EmbeddedChannel(large);
        // A TLS 1.2/1.3 ClientHello record header: handshake (22), version 3.1, length 0x00c8; then its first bytes.
        byte[] hello = {0x16, 0x03, 0x01, 0x00, (byte) 0xc8, 0x01, 0x00, 0x00, (byte) 0xc4, 0x03, 0x03};
        ch.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(hello));
        assertThat(r.errors).containsExactly("the peer sent a TLS handshake to this plaintext port: it expects TLS");
        assertThat(r.frames).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void theSameLengthAfterTheFirstFrameIsAnOrdinaryFrameLength() {
        FrameDecoder large = new FrameDecoder(16_777_215);
        Recorder r = new Recorder();
        large.handler(r);
        EmbeddedChannel ch = new EmbeddedChannel(large);
        ch.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(new byte[] {0, 0, 1, 7, 0x16, 0x03, 0x01, 0}));
        assertThat(r.frames).containsExactly(new byte[] {7});
        assertThat(r.errors).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void decodingStopsWhenTheEngineClosesTheChannelMidRead() {
        recorder.closeOnFrame = channel;
        decoder.handler(recorder);
        byte[] stream = threeFrames();
        read(stream, 0, stream.length);
        // Netty decodes the buffered rest once more as the channel goes inactive; none of it reaches the engine.
        assertThat(recorder.frames).containsExactly(frame(6));
        assertThat(recorder.closes).containsExactly("closed: null");
    }

    @Test
    void anExceptionInThePipelineClosesTheConnectionAndIsReportedOnce() {
        decoder.handler(recorder);
        channel.pipeline().fireExceptionCaught(new IOException("connection reset"));
        assertThat(channel.isOpen()).isFalse();
        assertThat(recorder.closes).containsExactly("closed: java.io.IOException: connection reset");
    }

    /** Notes what the decoder hands over; copies frames, so it keeps no buffer. */
    private static final class Recorder implements FrameHandler {
        final List<byte[]> frames = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        final List<String> closes = new ArrayList<>();
        int readCompletes;
        EmbeddedChannel closeOnFrame;

        @Override
        public void onFrame(ByteBuf buf, int offset, int length) {
            frames.add(ByteBufUtil.getBytes(buf, offset, length));
            events.add("frame " + length);
            if (closeOnFrame != null) {
                closeOnFrame.close();
            }
        }

        @Override
        public void onReadComplete() {
            readCompletes++;
            events.add("readComplete");
        }

        @Override
        public void onWritabilityChanged(boolean writable) {
            events.add("writable " + writable);
        }

        @Override
        public void onTransportError(String message) {
            errors.add(message);
        }

        @Override
        public void onClose(Throwable cause) {
            closes.add("closed: " + cause);
        }
    }
}
