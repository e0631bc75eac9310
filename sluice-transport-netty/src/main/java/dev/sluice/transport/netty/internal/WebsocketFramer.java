package dev.sluice.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns the engine's outbound batch (frames back to back, each behind a 3-byte length) into WebSocket binary
 * messages, one unfragmented message per RSocket frame and no length prefix, as the protocol's WebSocket mapping
 * requires (RFC 6455 §5.2):
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-------+-+-------------+-------------------------------+
 * |F|R|R|R| opcode|M| Payload len |    Extended payload length    |
 * |I|S|S|S|  0x2  |A|     (7)     |             (16/64)           |
 * |N|V|V|V|       |S|             |   (if payload len==126/127)   |
 * | |1|2|3|       |K|             |                               |
 * +-+-+-+-+-------+-+-------------+ - - - - - - - - - - - - - - - +
 * |     Extended payload length continued, if payload len == 127  |
 * + - - - - - - - - - - - - - - - +-------------------------------+
 * |                               |Masking-key, if MASK set to 1  |
 * +-------------------------------+-------------------------------+
 * | Masking-key (continued)       |          Payload Data         |
 * +-------------------------------- - - - - - - - - - - - - - - - +
 * </pre>
 *
 * <p>Why here and not through Netty's {@code WebSocket13FrameEncoder}: that encoder takes one
 * {@code BinaryWebSocketFrame} per message, so each RSocket frame would cost a frame object, a slice, a header
 * buffer (with a copy of frames up to 1 KiB) and an entry in the channel's outbound buffer. Here a whole batch costs
 * one pooled buffer and one copy of its bytes, with 2 to 14 header bytes added per frame: nothing is allocated per
 * frame. A server's (unmasked) frame larger than {@link #COPY_LIMIT} is not copied but written as a retained slice
 * of the batch behind its header. A client must mask every frame with a fresh random key, so its frames are always
 * copied (masking is a copy anyway). Control frames (pong, close) still go through Netty's encoder, which passes
 * these buffers on untouched.
 *
 * <p>The header's constants are shared with {@link WebsocketReader}, which reads the same layout. Stateless; called
 * on the channel's event loop.
 */
public final class WebsocketFramer {

    /** The unmasked frames up to this size are copied next to their header; larger ones go as slices. */
    static final int COPY_LIMIT = 8 * 1024;

    /** First byte: the final fragment of a message. */
    static final int FIN = 0x80;
    static final int OPCODE_CONTINUATION = 0x0;
    static final int OPCODE_TEXT = 0x1;
    static final int OPCODE_BINARY = 0x2;
    static final int OPCODE_CLOSE = 0x8;
    static final int OPCODE_PING = 0x9;
    static final int OPCODE_PONG = 0xA;
    /** Second byte: a masking key follows the length. */
    static final int MASK_BIT = 0x80;
    /** The largest length the 7-bit field holds itself. */
    static final int MAX_7_BIT_LENGTH = 125;
    /** A 7-bit length of 126: a 16-bit length follows. */
    static final int LENGTH_16 = 126;
    /** A 7-bit length of 127: a 64-bit length follows. */
    static final int LENGTH_64 = 127;

    private static final int LENGTH_PREFIX = 3;
    private static final int FIN_BINARY = FIN | OPCODE_BINARY;

    private WebsocketFramer() {
    }

    /**
     * Writes (without flushing) the frames of {@code batch} to {@code channel} as binary messages; with
     * {@code mask}, each is masked with a fresh random key, as a client must. Takes ownership of {@code batch}.
     */
    public static void write(Channel channel, ByteBuf batch, boolean mask) {
        ByteBuf out = null;
        try {
            int end = batch.writerIndex();
            for (int at = batch.readerIndex(); at + LENGTH_PREFIX <= end; ) {
                int length = batch.getUnsignedMedium(at);
                int payload = at + LENGTH_PREFIX;
                if (out == null) {
                    out = channel.alloc().directBuffer(runBytes(batch, at, end, mask));
                }
                if (mask) {
                    int key = ThreadLocalRandom.current().nextInt();
                    writeHeader(out, length, true);
                    out.writeInt(key);
                    int masked = out.writerIndex();
                    out.writeBytes(batch, payload, length);
                    mask(out, masked, length, key);
                } else if (length <= COPY_LIMIT) {
                    writeHeader(out, length, false);
                    out.writeBytes(batch, payload, length);
                } else {
                    writeHeader(out, length, false);
                    ByteBuf run = out;
                    out = null;
                    channel.write(run, channel.voidPromise());
                    channel.write(batch.retainedSlice(payload, length), channel.voidPromise());
                }
                at = payload + length;
            }
            if (out != null) {
                ByteBuf last = out;
                out = null;
                channel.write(last, channel.voidPromise());
            }
        } finally {
            if (out != null) {
                // Only if something above threw: what was not handed to the channel is still ours.
                out.release();
            }
            batch.release();
        }
    }

    /**
     * The bytes needed for the frames from {@code at}: each frame's header and, while frames are copied, its
     * payload, up to and including the header of the first frame that will go as a slice.
     */
    static int runBytes(ByteBuf batch, int at, int end, boolean mask) {
        int bytes = 0;
        while (at + LENGTH_PREFIX <= end) {
            int length = batch.getUnsignedMedium(at);
            bytes += headerLength(length, mask);
            if (!mask && length > COPY_LIMIT) {
                break;
            }
            bytes += length;
            at += LENGTH_PREFIX + length;
        }
        return bytes;
    }

    /** The header's size for a payload of {@code length} bytes: 2, 4 or 10, and 4 more with a masking key. */
    static int headerLength(int length, boolean mask) {
        int base = length <= MAX_7_BIT_LENGTH ? 2 : length <= 0xFFFF ? 4 : 10;
        return mask ? base + 4 : base;
    }

    private static void writeHeader(ByteBuf out, int length, boolean mask) {
        int maskBit = mask ? MASK_BIT : 0;
        out.writeByte(FIN_BINARY);
        if (length <= MAX_7_BIT_LENGTH) {
            out.writeByte(maskBit | length);
        } else if (length <= 0xFFFF) {
            out.writeByte(maskBit | LENGTH_16);
            out.writeShort(length);
        } else {
            out.writeByte(maskBit | LENGTH_64);
            out.writeLong(length);
        }
    }

    /**
     * Masks (or unmasks: the same XOR) {@code buf[index, index + length)} in place with {@code key}: payload byte i
     * is XORed with byte (i mod 4) of the key, the key's most significant byte being byte 0 (RFC 6455 §5.3).
     *
     * <p>Eight bytes at a time through the buffer's NIO view: the JIT compiles a direct {@code ByteBuffer}'s
     * absolute {@code getLong}/{@code putLong} to plain loads and stores, where {@code ByteBuf}'s check the reference
     * count on every call, which made masking 40% of a client's CPU time per request-response message.
     */
    static void mask(ByteBuf buf, int index, int length, int key) {
        long key8 = (long) key << 32 | key & 0xFFFFFFFFL;
        if (buf.nioBufferCount() == 1) {
            // Big-endian, as a ByteBuffer view starts: byte 0 of the key meets the lowest address.
            ByteBuffer b = buf.internalNioBuffer(index, length);
            int i = b.position();
            int end = i + length;
            for (; i + Long.BYTES <= end; i += Long.BYTES) {
                b.putLong(i, b.getLong(i) ^ key8);
            }
            for (int k = 0; i < end; i++, k++) {
                b.put(i, (byte) (b.get(i) ^ key >>> 24 - 8 * (k & 3)));
            }
            return;
        }
        int i = index;
        int end = index + length;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            buf.setLong(i, buf.getLong(i) ^ key8);
        }
        for (int k = 0; i < end; i++, k++) {
            buf.setByte(i, buf.getByte(i) ^ key >>> 24 - 8 * (k & 3));
        }
    }
}
