package dev.sluice.rpc.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Protobuf messages to and from Netty buffers with nothing allocated but the messages: each thread keeps one
 * protobuf encoder and one decoder ({@link CodecStreams}), pointed at the buffer of the message at hand, instead
 * of a new {@code CodedOutputStream}/{@code CodedInputStream} and an NIO view of the buffer per message (those made
 * up most of a unary call's allocation: 704 B per call at 4 B, against the request's own message and bytes).
 *
 * <p>Thread-safe: the streams are per thread, and nothing here calls back into user code while using them.
 */
public final class ProtobufCodec {

    private ProtobufCodec() {
    }

    /** {@code message} serialized into a new buffer of exactly its size; the caller owns the buffer. */
    public static ByteBuf encode(ByteBufAllocator allocator, MessageLite message) {
        int size = message.getSerializedSize();
        if (size == 0) {
            return Unpooled.EMPTY_BUFFER;
        }
        ByteBuf buf = allocator.buffer(size, size);
        CodecStreams streams = CodecStreams.current();
        try {
            message.writeTo(streams.encoderInto(buf));
            streams.encoderDone();
            if (buf.readableBytes() != size) {
                throw new IllegalStateException(message.getClass().getName() + " wrote " + buf.readableBytes()
                    + " bytes after announcing " + size + " (was it changed while being serialized?)");
            }
            return buf;
        } catch (IOException e) {
            streams.encoderFailed();
            buf.release();
            throw new UncheckedIOException("cannot serialize " + message.getClass().getName(), e);
        } catch (RuntimeException e) {
            streams.encoderFailed();
            buf.release();
            throw e;
        }
    }

    /**
     * The message in {@code data}'s readable bytes; {@code data} is borrowed and left untouched. Bytes fields are
     * copied out, so the message outlives the buffer.
     *
     * @throws InvalidProtocolBufferException if the bytes are not a valid encoding of the message
     */
    public static <T> T decode(ByteBuf data, Parser<T> parser) throws InvalidProtocolBufferException {
        return decode(data, data.readerIndex(), data.readableBytes(), parser);
    }

    /** Decodes the {@code length} bytes of {@code buf} from {@code index} (a region of a frame: no view made). */
    public static <T> T decode(ByteBuf buf, int index, int length, Parser<T> parser)
        throws InvalidProtocolBufferException {
        CodecStreams streams = CodecStreams.current();
        CodedInputStream in = streams.decoderFrom(buf, index, length);
        try {
            T message = parser.parseFrom(in);
            // A top-level message ends at the end of its bytes: an END_GROUP tag before that is not a message.
            in.checkLastTagWas(0);
            streams.decoderDone();
            return message;
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            streams.decoderFailed();
            throw e;
        }
    }
}
