package dev.sluice.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.rpc.echo.v1.EchoRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An outgoing message as a payload: the bytes it writes into a frame are the message's encoding, whatever its size,
 * and so are those of a copy asked for; a shared route is read in place, handed out only as a view and never
 * released, while metadata of the payload's own is released with it.
 */
class MessagePayloadTest {

    private static EchoRequest request(int size) {
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) 7);
        return EchoRequest.newBuilder().setText("hello").setData(ByteString.copyFrom(data)).setCount(size).build();
    }

    @ParameterizedTest(name = "{0} bytes of data")
    @ValueSource(ints = {0, 4, 140, 8_000, 9_000, 100_000})
    void theFrameGetsTheMessagesEncodingAndSoDoesACopy(int size) {
        EchoRequest message = request(size);
        MessagePayload payload = MessagePayload.of(message);
        ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer();
        try {
            frame.writeBytes(new byte[] {1, 2, 3}); // the frame's header, already written
            assertThat(payload.length()).isEqualTo(message.getSerializedSize());
            assertThat(payload.dataLength()).isEqualTo(message.getSerializedSize());

            payload.writeTo(frame);
            payload.writeTo(frame);

            byte[] encoded = message.toByteArray();
            assertThat(frame.readableBytes()).isEqualTo(3 + 2 * encoded.length);
            assertThat(ByteBufUtil.getBytes(frame, 3, encoded.length)).isEqualTo(encoded);
            assertThat(ByteBufUtil.getBytes(frame, 3 + encoded.length, encoded.length)).isEqualTo(encoded);
            assertThat(ByteBufUtil.getBytes(payload.data())).isEqualTo(encoded);
            assertThat(payload.data()).isSameAs(payload.data());
            assertThat(payload.hasMetadata()).isFalse();
            assertThat(payload.metadataLength()).isZero();
        } finally {
            frame.release();
            assertThat(payload.release()).isTrue();
        }
    }

    @Test
    void aSharedRouteIsReadInPlaceLentOnlyAsAViewAndNeverReleased() {
        ByteBuf route = ByteBufAllocator.DEFAULT.buffer().writeBytes(new byte[] {9, 8, 7, 6});
        route.readerIndex(1);
        try {
            MessagePayload payload = MessagePayload.withSharedRoute(request(4), route);
            assertThat(payload.hasMetadata()).isTrue();
            assertThat(payload.metadataBuffer()).isSameAs(route);
            assertThat(payload.metadataIndex()).isEqualTo(1);
            assertThat(payload.metadataLength()).isEqualTo(3);

            ByteBuf view = payload.metadata();
            assertThat(view).isNotSameAs(route);
            assertThat(payload.metadata()).isSameAs(view);
            view.skipBytes(2);
            assertThat(payload.metadataIndex()).as("the route's own index").isEqualTo(1);

            payload.release();
            assertThat(route.refCnt()).isEqualTo(1);
        } finally {
            route.release();
        }
    }

    @Test
    void metadataOfThePayloadsOwnIsReleasedWithIt() {
        ByteBuf metadata = ByteBufAllocator.DEFAULT.buffer().writeBytes(new byte[] {1, 2});
        MessagePayload payload = MessagePayload.withMetadata(request(4), metadata);
        assertThat(payload.metadata()).isSameAs(metadata);
        assertThat(payload.metadataBuffer()).isSameAs(metadata);
        payload.retain();
        assertThat(payload.release()).isFalse();
        assertThat(metadata.refCnt()).isEqualTo(1);
        assertThat(payload.release()).isTrue();
        assertThat(metadata.refCnt()).isZero();
    }
}
