package dev.sluice.bench.throughput.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The message bodies every implementation sends: {@code size} bytes of printable filler, the same for requests
 * and answers. Stateless.
 */
public final class Payloads {

    private Payloads() {
    }

    /** The body as an array. */
    public static byte[] bytes(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /**
     * The body in a pooled direct buffer, as a template: senders write {@code retainedDuplicate()}s of it, which
     * Netty recycles, so each message costs no allocation and no copy before the encoder's. Owned by the caller.
     */
    public static ByteBuf template(int size) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(1, size), Math.max(1, size));
        return b.writeBytes(bytes(size));
    }
}
