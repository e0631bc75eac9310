package dev.sluice.bench.throughput.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The message bodies every implementation sends: {@code size} bytes of printable filler, the same for requests
 * and answers. Stateless.
 */
public final class Payloads {

    /** Direct buffers the leak detector does not track: a template lives as long as its JVM. */
    private static final UnpooledByteBufAllocator CONSTANTS = new UnpooledByteBufAllocator(true, true);

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
     * The body in a direct buffer, as a constant template: senders hand the stack {@code retainedDuplicate()}s of
     * it, and the stack's release of each is a no-op (an unreleasable buffer, as an application sends a constant),
     * so each message costs two small objects and no atomic instruction or copy before the encoder's. A pooled
     * duplicate per message instead cost the client a fifth of its time per request-response (Netty's
     * {@code Recycler} and three reference-count updates), all of it the harness's, not the stack's. Owned by the
     * caller: {@code release()} does nothing.
     */
    public static ByteBuf template(int size) {
        ByteBuf b = CONSTANTS.directBuffer(Math.max(1, size), Math.max(1, size));
        return Unpooled.unreleasableBuffer(b.writeBytes(bytes(size)));
    }
}
