package dev.sluice.rpc.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Protobuf messages to and from Netty buffers, by the fastest route protobuf offers for each case. An outgoing
 * message is serialized into the frame that carries it (by {@link MessagePayload}): a small one by protobuf's array
 * encoder into the thread's scratch array ({@link #serializeSmall}), then copied (the array encoder costs 6 ns for a
 * 4-byte message against 27 ns through a stream and 58 ns into a pooled direct buffer), a large one through the
 * thread's reusable stream encoder ({@link #writeLarge}). A message in a heap buffer is decoded from its array. One
 * in a direct buffer (every frame read from a socket) is decoded by {@link #decode} through one reusable stream
 * decoder per thread ({@link CodecStreams}), so that no decoder is made per message: a new array decoder parses
 * faster on its own, but for a unary call, with hundreds in flight, its garbage costs what it saves. The messages of
 * a stream go through {@link #decodeCopied} instead: copied into the thread's scratch array and parsed there by a
 * new array decoder, which streams are measurably faster with (docs/benchmarks.md). {@link #encode} makes a buffer
 * of a message's own, for whoever asks a {@link MessagePayload} for a copy of its data.
 *
 * <p>Thread-safe: the streams are per thread, and nothing here calls back into user code while using them.
 */
public final class ProtobufCodec {

    /**
     * Messages up to this size are serialized by protobuf's array encoder (into the scratch array, or a new heap
     * array for a copy) rather than through a stream into a pooled buffer: for a small message a stream's or the
     * pool's overhead costs more than the encoding, while a large one is better kept out of the garbage collector's
     * way.
     */
    static final int HEAP_MAX = 8192;

    private ProtobufCodec() {
    }

    /**
     * {@code message} serialized into a new buffer of exactly its size: a heap array up to {@link #HEAP_MAX} bytes,
     * else a buffer of {@code allocator}. The caller owns the buffer.
     */
    public static ByteBuf encode(ByteBufAllocator allocator, MessageLite message) {
        int size = message.getSerializedSize();
        if (size == 0) {
            return Unpooled.EMPTY_BUFFER;
        }
        if (size <= HEAP_MAX) {
            // Checks that it wrote exactly the size it announced.
            return Unpooled.wrappedBuffer(message.toByteArray());
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
     * {@code message} serialized by protobuf's array encoder into the thread's scratch array, from index 0: exactly
     * {@code size} bytes, its serialized size as the caller read it, at most {@link #HEAP_MAX}. The array is the
     * caller's until it next calls into this class on this thread.
     *
     * @throws IllegalStateException if the message's bytes were not {@code size} (it changed since)
     */
    static byte[] serializeSmall(MessageLite message, int size) {
        byte[] scratch = CodecStreams.current().scratch();
        CodedOutputStream encoder = CodedOutputStream.newInstance(scratch, 0, size);
        try {
            message.writeTo(encoder);
        } catch (IOException e) {
            throw wrongSize(message, size, e);
        }
        if (encoder.spaceLeft() != 0) {
            throw wrongSize(message, size, null);
        }
        return scratch;
    }

    /**
     * Appends {@code message}, larger than {@link #HEAP_MAX}, serialized to {@code out} through the thread's
     * reusable stream encoder: exactly {@code size} bytes, its serialized size as the caller read it.
     *
     * @throws IllegalStateException if the message's bytes were not {@code size} (it changed since), having appended
     *     part of them (the caller drops the frame)
     */
    static void writeLarge(ByteBuf out, MessageLite message, int size) {
        CodecStreams streams = CodecStreams.current();
        int start = out.writerIndex();
        try {
            message.writeTo(streams.encoderInto(out));
            streams.encoderDone();
        } catch (IOException e) {
            streams.encoderFailed();
            throw new UncheckedIOException("cannot serialize " + message.getClass().getName(), e);
        } catch (RuntimeException e) {
            streams.encoderFailed();
            throw e;
        }
        if (out.writerIndex() - start != size) {
            throw wrongSize(message, size, null);
        }
    }

    private static IllegalStateException wrongSize(MessageLite message, int size, IOException cause) {
        return new IllegalStateException(message.getClass().getName() + " did not serialize to the " + size
            + " bytes it announced (was it changed while being serialized?)", cause);
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

    /**
     * As {@link #decode(ByteBuf, int, int, Parser)}, for one message of a stream of them (the responses of a
     * server-streaming or bidirectional call, the requests of a channel): one in a direct buffer of up to
     * {@link #HEAP_MAX} bytes is copied into the thread's scratch array and parsed from there by protobuf's array
     * decoder, a new object per message that a stream's burst of messages pays for.
     */
    public static <T> T decodeCopied(ByteBuf buf, int index, int length, Parser<T> parser)
        throws InvalidProtocolBufferException {
        if (buf.hasArray() || length > HEAP_MAX) {
            return decode(buf, index, length, parser);
        }
        byte[] scratch = CodecStreams.current().scratch();
        buf.getBytes(index, scratch, 0, length);
        // Bytes fields are copied out of the array (it is not marked immutable), so the message outlives the scratch.
        return parser.parseFrom(scratch, 0, length);
    }

    /** Decodes the {@code length} bytes of {@code buf} from {@code index} (a region of a frame: no view made). */
    public static <T> T decode(ByteBuf buf, int index, int length, Parser<T> parser)
        throws InvalidProtocolBufferException {
        if (buf.hasArray()) {
            // Parsing an array checks that the message ends where the bytes do, as the stream path below does.
            return parser.parseFrom(buf.array(), buf.arrayOffset() + index, length);
        }
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
