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
     * The body in a direct buffer, as a constant template: senders make each message a new payload over this same
     * buffer, whose release is a no-op (an unreleasable buffer, as an application sends a constant). The stacks
     * read a payload's bytes by index and never move its buffer's indexes, so no buffer per message is allocated,
     * counted or copied before the encoder's copy (SharedTemplateTest holds both stacks to that). A pooled
     * duplicate per message instead cost the Sluice client a fifth of its time per request-response (Netty's
     * {@code Recycler} and three reference-count updates), and an unpooled duplicate about 12 ns per message, all
     * of it the harness's. Thread-safe to read; {@code release()} does nothing.
     */
    public static ByteBuf template(int size) {
        ByteBuf b = CONSTANTS.directBuffer(Math.max(1, size), Math.max(1, size));
        return Unpooled.unreleasableBuffer(b.writeBytes(bytes(size)));
    }
}
