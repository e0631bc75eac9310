package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.RequestStreamFrame;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameWalkerTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 140})
    void countsEveryFrameWhereverTheReadsSplitTheBytes(int size) {
        ByteBuf frames = FloorFrames.answers(5, size);
        try {
            int total = frames.readableBytes();
            for (int cut = 0; cut <= total; cut++) {
                FrameWalker walker = new FrameWalker();
                int counted = walker.walk(frames.slice(0, cut)) + walker.walk(frames.slice(cut, total - cut));
                assertThat(counted).as("cut at byte %d of %d", cut, total).isEqualTo(5);
            }
        } finally {
            frames.release();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 140})
    void countsFramesFedOneByteAtATime(int size) {
        ByteBuf frames = FloorFrames.requests(3, size);
        try {
            FrameWalker walker = new FrameWalker();
            int counted = 0;
            int[] completedAt = new int[3];
            for (int i = 0; i < frames.readableBytes(); i++) {
                int n = walker.walk(frames.slice(i, 1));
                if (n == 1) {
                    completedAt[counted] = i;
                }
                counted += n;
            }
            int frameLength = FloorFrames.frameLength(frames, 3);
            // A frame counts when its last byte arrives, not before.
            assertThat(completedAt).containsExactly(frameLength - 1, 2 * frameLength - 1, 3 * frameLength - 1);
        } finally {
            frames.release();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 140})
    void floorFramesAreTheRSocketFramesAStackWouldSend(int size) {
        ByteBuf elements = FloorFrames.streamPayloads(2, size);
        ByteBuf answers = FloorFrames.answers(2, size);
        ByteBuf requests = FloorFrames.requests(2, size);
        ByteBuf streamRequest = FloorFrames.streamRequest(size);
        try {
            // length prefix (3) + header (6) + data; REQUEST_STREAM adds initial request n (4).
            assertThat(FloorFrames.frameLength(elements, 2)).isEqualTo(3 + 6 + size);
            assertThat(streamRequest.readableBytes()).isEqualTo(3 + 6 + 4 + size);
            int second = 3 + 6 + size;
            assertThat(elements.getUnsignedMedium(0)).isEqualTo(6 + size);
            assertThat(FrameHeader.frameType(elements, 3)).isEqualTo(FrameType.PAYLOAD);
            assertThat(FrameHeader.streamId(elements, second + 3)).isEqualTo(1);
            assertThat(PayloadFrame.isNext(elements, 3)).isTrue();
            assertThat(PayloadFrame.isComplete(elements, 3)).isFalse();
            assertThat(PayloadFrame.dataLength(elements, 3, 6 + size)).isEqualTo(size);

            assertThat(PayloadFrame.isComplete(answers, 3)).isTrue();
            assertThat(FrameHeader.streamId(answers, second + 3)).isEqualTo(3);
            assertThat(FrameHeader.frameType(requests, 3)).isEqualTo(FrameType.REQUEST_RESPONSE);
            assertThat(RequestResponseFrame.dataLength(requests, 3, 6 + size)).isEqualTo(size);
            assertThat(FrameHeader.frameType(streamRequest, 3)).isEqualTo(FrameType.REQUEST_STREAM);
            // 2^31-1 on the wire, which readers take as unbounded.
            assertThat(streamRequest.getInt(3 + RequestStreamFrame.INITIAL_REQUEST_N_OFFSET))
                .isEqualTo(Integer.MAX_VALUE);
            assertThat(RequestStreamFrame.initialRequestN(streamRequest, 3)).isEqualTo(Long.MAX_VALUE);
        } finally {
            elements.release();
            answers.release();
            requests.release();
            streamRequest.release();
        }
    }
}
