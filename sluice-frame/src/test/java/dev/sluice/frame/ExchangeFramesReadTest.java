package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameReader#read} takes a shorter road for REQUEST_RESPONSE, REQUEST_FNF and PAYLOAD, the frames of every
 * request-response exchange; it must end where the validating road ({@link FrameReader#readValidated}) ends, for
 * valid and invalid frames alike. Every combination below is read both ways and the handler calls compared: every
 * flag combination, stream ids 0, 1 and one with the reserved bit, lengths from a bare header to a few bytes of
 * data, and metadata lengths that fit, fill or overrun the frame.
 */
class ExchangeFramesReadTest {

    private static final int[] TYPES = {FrameType.REQUEST_RESPONSE, FrameType.REQUEST_FNF, FrameType.PAYLOAD,
        FrameType.REQUEST_STREAM, FrameType.CANCEL, FrameType.EXT};
    private static final int[] STREAM_IDS = {0, 1, 0x80000003};
    /** Bytes after the header. */
    private static final int[] BODY_LENGTHS = {0, 1, 2, 3, 4, 7, 12};
    /** What the first three body bytes say, read as a metadata length when M is set. */
    private static final int[] METADATA_LENGTH_FIELDS = {0, 1, 4, 9, 0xFFFFFF};

    @Test
    void theShortRoadEndsWhereTheValidatingRoadDoes() {
        // A heap buffer the leak detector does not track: at the tests' paranoid level every read of a tracked
        // buffer records a stack trace, which made this test's 645,120 reads of each road take a minute.
        ByteBuf buf = Unpooled.buffer(64);
        int compared = 0;
        int dispatched = 0;
        for (int type : TYPES) {
            for (int flags = 0; flags <= FrameFlags.MASK; flags++) {
                for (int streamId : STREAM_IDS) {
                    for (int bodyLength : BODY_LENGTHS) {
                        for (int metadataLengthField : METADATA_LENGTH_FIELDS) {
                            int off = frame(buf, type, flags, streamId, bodyLength, metadataLengthField);
                            int len = buf.writerIndex() - off;
                            RecordingHandler shortRoad = new RecordingHandler();
                            RecordingHandler validatingRoad = new RecordingHandler();
                            FrameReader.read(buf, off, len, shortRoad);
                            FrameReader.readValidated(buf, off, len, validatingRoad);
                            if (!shortRoad.calls.equals(validatingRoad.calls)) {
                                assertThat(shortRoad.calls)
                                    .as("type %d, flags %x, stream %x, body %d, metadata field %d", type, flags,
                                        streamId, bodyLength, metadataLengthField)
                                    .isEqualTo(validatingRoad.calls);
                            }
                            compared++;
                            if (dispatchedTo(validatingRoad)) {
                                dispatched++;
                            }
                        }
                    }
                }
            }
        }
        // Both outcomes were met many times over: the comparison covered accepted frames, not only refused ones.
        assertThat(compared).isEqualTo(TYPES.length * (FrameFlags.MASK + 1) * STREAM_IDS.length
            * BODY_LENGTHS.length * METADATA_LENGTH_FIELDS.length);
        assertThat(dispatched).isGreaterThan(compared / 10).isLessThan(compared);
    }

    private static boolean dispatchedTo(RecordingHandler handler) {
        return !handler.calls.isEmpty() && !handler.calls.get(0).startsWith("malformed");
    }

    /** Writes one frame behind {@link TestBuffers#PREFIX} into {@code buf} (cleared first); returns its offset. */
    private static int frame(ByteBuf buf, int type, int flags, int streamId, int bodyLength, int metadataLengthField) {
        buf.clear().writeBytes(TestBuffers.PREFIX);
        int off = buf.writerIndex();
        buf.writeInt(streamId);
        buf.writeShort(type << 10 | flags);
        for (int i = 0; i < bodyLength; i++) {
            // The first three body bytes carry the metadata length field (big-endian); the rest are letters.
            buf.writeByte(i < 3 ? metadataLengthField >>> 8 * (2 - i) & 0xFF : 'a' + i);
        }
        return off;
    }
}
