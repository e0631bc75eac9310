package dev.sluice.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.rpc.echo.v1.EchoRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-thread encoder and decoder carry no state from one message to the next: messages of every size round
 * trip one after another on one thread, a message that fails to parse leaves the next one unharmed, and bytes that
 * are not one whole message are refused; a stream's messages, parsed from the thread's scratch array, outlive it.
 */
class ProtobufCodecTest {

    private static EchoRequest request(int size, int seed) {
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) seed);
        return EchoRequest.newBuilder().setText("t" + seed).setData(ByteString.copyFrom(data)).setCount(seed).build();
    }

    private static EchoRequest roundTrip(EchoRequest message) throws InvalidProtocolBufferException {
        ByteBuf buf = ProtobufCodec.encode(ByteBufAllocator.DEFAULT, message);
        try {
            assertThat(buf.readableBytes()).isEqualTo(message.getSerializedSize());
            assertThat(ByteString.copyFrom(buf.nioBuffer())).isEqualTo(message.toByteString());
            return ProtobufCodec.decode(buf, EchoRequest.parser());
        } finally {
            buf.release();
        }
    }

    @Test
    void messagesOfEverySizeRoundTripOneAfterAnother() throws Exception {
        int[] sizes = {0, 1, 4, 140, CodecStreams.BUFFER_BYTES - 10, CodecStreams.BUFFER_BYTES,
            CodecStreams.BUFFER_BYTES * 3 + 7, 100_000, 4, 0};
        for (int i = 0; i < sizes.length; i++) {
            EchoRequest m = request(sizes[i], i + 1);
            assertThat(roundTrip(m)).isEqualTo(m);
        }
        assertThat(roundTrip(EchoRequest.getDefaultInstance())).isEqualTo(EchoRequest.getDefaultInstance());
    }

    @Test
    void aMessageThatFailsToParseLeavesTheNextOneUnharmed() throws Exception {
        EchoRequest big = request(10_000, 7);
        byte[] whole = big.toByteArray();
        // Cut in the middle of the data field: the decoder has read part of it when it finds the end.
        ByteBuf truncated = Unpooled.wrappedBuffer(whole, 0, whole.length / 2);
        assertThatThrownBy(() -> ProtobufCodec.decode(truncated, EchoRequest.parser()))
            .isInstanceOf(InvalidProtocolBufferException.class);
        ByteBuf garbage = Unpooled.wrappedBuffer(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        assertThatThrownBy(() -> ProtobufCodec.decode(garbage, EchoRequest.parser()))
            .isInstanceOf(InvalidProtocolBufferException.class);
        EchoRequest next = request(140, 9);
        assertThat(roundTrip(next)).isEqualTo(next);
        assertThat(roundTrip(big)).isEqualTo(big);
    }

    @Test
    void anEndGroupTagAtTheTopLevelIsNotAMessage() {
        // Field 1 (text) "a", then END_GROUP for field 1 (tag 0x0C), then more bytes the parser would never read.
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {0x0A, 0x01, 'a', 0x0C, 0x18, 0x05});
        assertThatThrownBy(() -> ProtobufCodec.decode(buf, EchoRequest.parser()))
            .isInstanceOf(InvalidProtocolBufferException.class);
    }

    @Test
    void aMessageSplitOverSeveralBuffersDecodes() throws Exception {
        EchoRequest m = request(9_000, 3);
        byte[] bytes = m.toByteArray();
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 0, 5));
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 5, 5_000));
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 5_005, bytes.length - 5_005));
        try {
            assertThat(ProtobufCodec.decode(composite, EchoRequest.parser())).isEqualTo(m);
            assertThat(composite.readerIndex()).as("the buffer is borrowed, not consumed").isZero();
        } finally {
            composite.release();
        }
    }

    @Test
    void aRegionOfADirectBufferDecodesAtEveryLengthAndOffset() throws Exception {
        // Regions of a frame in a direct buffer, each read by the one stream decoder the thread reuses.
        ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer(1024);
        try {
            for (int dataSize = 0; dataSize <= 300; dataSize++) {
                EchoRequest m = request(dataSize, dataSize % 100);
                byte[] bytes = m.toByteArray();
                for (int offset = 0; offset < 9; offset++) {
                    frame.clear().writeZero(offset).writeBytes(bytes).writeByte(0x7F);
                    assertThat(ProtobufCodec.decode(frame, offset, bytes.length, EchoRequest.parser()))
                        .as("%d bytes at offset %d", bytes.length, offset).isEqualTo(m);
                }
            }
        } finally {
            frame.release();
        }
    }

    @Test
    void aStreamsMessagesAreParsedFromTheScratchArrayAndOutliveIt() throws Exception {
        int[] sizes = {0, 4, 140, ProtobufCodec.HEAP_MAX - 100, ProtobufCodec.HEAP_MAX + 100, 4, 1};
        List<EchoRequest> sent = new ArrayList<>();
        List<EchoRequest> decoded = new ArrayList<>();
        ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer(16 * 1024);
        try {
            for (int i = 0; i < sizes.length; i++) {
                EchoRequest m = request(sizes[i], i + 1);
                byte[] bytes = m.toByteArray();
                frame.clear().writeZero(3).writeBytes(bytes).writeByte(0x7F);
                sent.add(m);
                decoded.add(ProtobufCodec.decodeCopied(frame, 3, bytes.length, EchoRequest.parser()));
            }
        } finally {
            frame.release();
        }
        // Each one still equal to what was sent after the later ones went through the same scratch array.
        assertThat(decoded).containsExactlyElementsOf(sent);
    }

    @Test
    void aStreamsMessageThatIsNotOneWholeMessageIsRefused() {
        byte[] whole = request(140, 5).toByteArray();
        byte[][] bad = {
            Arrays.copyOf(whole, whole.length / 2),
            {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
            {0x0A, 0x01, 'a', 0x0C, 0x18, 0x05}, // an END_GROUP tag at the top level
        };
        for (byte[] bytes : bad) {
            ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer().writeBytes(bytes);
            try {
                assertThatThrownBy(() -> ProtobufCodec.decodeCopied(frame, 0, bytes.length, EchoRequest.parser()))
                    .isInstanceOf(InvalidProtocolBufferException.class);
            } finally {
                frame.release();
            }
        }
    }
}
