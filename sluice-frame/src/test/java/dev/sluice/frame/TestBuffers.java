package dev.sluice.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Buffers for one test, all released by {@link #releaseAll()} (call it from {@code @AfterEach}), so that the leak
 * gate sees every allocation balanced.
 *
 * <p>They come from the pooled allocator because Netty only tracks pooled and direct buffers for leaks:
 * {@code Unpooled.buffer()} heap buffers are invisible to the detector, and a test using them could leak unseen.
 */
public final class TestBuffers {

    /** Bytes written before a frame so that readers are tested at a non-zero offset. */
    public static final byte[] PREFIX = {(byte) 0xA5, (byte) 0x5A, (byte) 0xFF};

    private final List<ByteBuf> owned = new ArrayList<>();

    /** An empty, growable, leak-tracked buffer. */
    public ByteBuf buffer() {
        return track(ByteBufAllocator.DEFAULT.buffer());
    }

    /** An empty, leak-tracked buffer with room for {@code capacity} bytes. */
    public ByteBuf buffer(int capacity) {
        return track(ByteBufAllocator.DEFAULT.buffer(capacity));
    }

    /** A buffer holding {@link #PREFIX}: encode a frame into it and read the frame at {@code PREFIX.length}. */
    public ByteBuf prefixed() {
        return buffer().writeBytes(PREFIX);
    }

    /** A buffer holding exactly these bytes (each int is taken as an unsigned byte). */
    public ByteBuf of(int... bytes) {
        ByteBuf b = buffer();
        for (int v : bytes) {
            b.writeByte(v);
        }
        return b;
    }

    /**
     * A buffer of exactly {@code bytes.length} capacity holding {@code bytes}: reads past the end throw. (A wrapped
     * array, so not leak-tracked; it is released all the same.)
     */
    public ByteBuf exact(byte[] bytes) {
        return track(Unpooled.wrappedBuffer(bytes));
    }

    /** The UTF-8 bytes of {@code s}, behind a non-zero reader index to catch absolute/relative index mixups. */
    public ByteBuf utf8(String s) {
        ByteBuf b = buffer();
        b.writeBytes(new byte[] {9, 9});
        b.readerIndex(2);
        b.writeCharSequence(s, StandardCharsets.UTF_8);
        return b;
    }

    /**
     * {@code length} patterned bytes ({@code seed + i * 7}) behind a non-zero reader index, so that a reader that
     * ignores the index or moves it is caught.
     */
    public ByteBuf patterned(int length, int seed) {
        ByteBuf b = buffer(length + 1).writeByte(0xEE).skipBytes(1);
        for (int i = 0; i < length; i++) {
            b.writeByte(seed + i * 7);
        }
        return b;
    }

    /** Adopts a buffer made elsewhere so that it is released with the others. */
    public <T extends ByteBuf> T track(T buf) {
        owned.add(buf);
        return buf;
    }

    /** Releases every buffer this instance handed out or adopted. */
    public void releaseAll() {
        for (ByteBuf b : owned) {
            if (b.refCnt() > 0) {
                b.release(b.refCnt());
            }
        }
        owned.clear();
    }

    /** The bytes of {@code buf} at {@code [index, index + length)}. */
    public static byte[] bytes(ByteBuf buf, int index, int length) {
        return ByteBufUtil.getBytes(buf, index, length);
    }

    /** The readable bytes of {@code buf}, or an empty array for null. */
    public static byte[] readable(ByteBuf buf) {
        return buf == null ? new byte[0] : ByteBufUtil.getBytes(buf);
    }

    /** Bytes from ints taken as unsigned bytes. */
    public static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return out;
    }

    /** {@code a} followed by {@code b}. */
    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** ASCII bytes of {@code s}. */
    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
