package dev.sluice.frame;

import dev.sluice.frame.internal.Copies;
import io.netty.buffer.ByteBuf;

/**
 * A payload's data that writes itself into the frame that carries it, instead of being copied from a buffer: data
 * made on demand, such as a serialized protobuf message, goes straight into the outgoing frame with no buffer of its
 * own in between. {@link Fragmenter#write(FrameSink, int, int, int, int, long, ByteBuf, int, int, FrameData)} takes
 * it.
 *
 * <p>A class rather than an interface because a writer tells such data apart from an ordinary payload on every
 * frame it writes: testing an object against a class is one comparison, while testing it against an interface it
 * does not implement scans that object's interfaces (a sixth of the engine's in-process request-response time).
 *
 * <p>An implementation knows its length before it writes, and writes the same bytes each time it is asked.
 */
public abstract class FrameData {

    /** For subclasses. */
    protected FrameData() {
    }

    /** How many bytes {@link #writeTo} appends. */
    public abstract int length();

    /**
     * Appends exactly {@link #length()} bytes at {@code out}'s writer index and advances it. {@code out} may be a
     * buffer shared with other frames: write nothing else, keep no reference to it, and do not release it.
     */
    public abstract void writeTo(ByteBuf out);

    /**
     * Appends {@code length} bytes of {@code src} from {@code index} to {@code out} as the engine appends a payload's
     * data: a short region by words, where {@link ByteBuf#writeBytes(byte[], int, int)} makes a fenced runtime call
     * whatever the length. For data serialized into an array first.
     */
    protected static void append(ByteBuf out, byte[] src, int index, int length) {
        Copies.append(out, src, index, length);
    }
}
