package dev.sluice.rpc.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Protobuf messages to and from Netty buffers without an intermediate {@code byte[]}: a message is written straight
 * into a buffer of its exact size, and parsed straight from the received buffer's memory.
 *
 * <p>Stateless; thread-safe.
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
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(buf.writerIndex(), size));
            message.writeTo(out);
            out.checkNoSpaceLeft();
            buf.writerIndex(buf.writerIndex() + size);
            return buf;
        } catch (IOException e) {
            buf.release();
            throw new UncheckedIOException("cannot serialize " + message.getClass().getName(), e);
        } catch (RuntimeException e) {
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
        if (data.nioBufferCount() == 1) {
            return parser.parseFrom(data.nioBuffer(data.readerIndex(), data.readableBytes()));
        }
        try (ByteBufInputStream in = new ByteBufInputStream(data.duplicate())) {
            return parser.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new InvalidProtocolBufferException(e);
        }
    }
}
