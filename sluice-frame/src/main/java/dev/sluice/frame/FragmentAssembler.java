package dev.sluice.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * The metadata and data of one payload being reassembled from its fragments (a request or PAYLOAD with F, then
 * PAYLOAD frames until one without F), joined without copying and bounded in size.
 *
 * <p><b>Joining.</b> {@link #add} takes one fragment's metadata and data as views of the received frame and keeps a
 * retained slice of each in a composite buffer, one for metadata and one for data, created when first needed.
 * Metadata of a fragment with M counts even when empty, so {@link #takeMetadata} can tell a payload with empty
 * metadata (an empty buffer) from one without (null).
 *
 * <p><b>The bound.</b> The metadata and data bytes added so far may not exceed {@code maxBytes}: a fragment that
 * would take the total past it is refused, nothing of it kept, and {@code add} returns why. The caller then drops
 * the whole payload with {@link #release}. (Bound a payload from the first fragment: a peer that never sends the
 * last one holds only this much memory.)
 *
 * <p><b>Ownership.</b> The buffer passed to {@code add} stays the caller's: the assembler holds its own references
 * (retained slices), so the caller may release or reuse the frame once {@code add} returns. The assembler owns its
 * composites until {@link #takeMetadata} and {@link #takeData} hand them over, after which the caller must release
 * what it took; or until {@link #release} drops whatever is still held. Take both at the end of the payload, or
 * release; an assembler is not reused after that.
 *
 * <p>Not thread-safe: confine it to the connection's event loop. Each {@code add} allocates (a slice, a
 * component, the composites of the first fragment): fragmentation is not the hot path.
 */
public final class FragmentAssembler {

    private final int maxBytes;
    private CompositeByteBuf metadata;
    private CompositeByteBuf data;
    private long size;

    /**
     * An empty assembler.
     *
     * @param maxBytes the most metadata and data bytes the whole payload may have, &ge; 0
     * @throws IllegalArgumentException if {@code maxBytes < 0}
     */
    public FragmentAssembler(int maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes < 0: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * Adds one fragment's metadata and data, retaining slices of {@code buf}.
     *
     * @param alloc allocates the composite buffers when the first metadata or data arrives
     * @param metadataIndex absolute index of the fragment's first metadata byte in {@code buf}
     * @param metadataLength the fragment's metadata bytes, or -1 when it has no M flag
     * @param dataIndex absolute index of the fragment's first data byte
     * @param dataLength the fragment's data bytes, 0 or more
     * @return null when added; otherwise, with nothing of this fragment kept, the message
     *     {@code "reassembled payload exceeds maxInboundPayloadSize: <total> > <maxBytes> bytes"}
     */
    public String add(ByteBufAllocator alloc, ByteBuf buf, int metadataIndex, int metadataLength, int dataIndex,
            int dataLength) {
        long next = size + Math.max(metadataLength, 0) + dataLength;
        if (next > maxBytes) {
            return "reassembled payload exceeds maxInboundPayloadSize: " + next + " > " + maxBytes + " bytes";
        }
        size = next;
        if (metadataLength >= 0) {
            if (metadata == null) {
                metadata = alloc.compositeBuffer(Integer.MAX_VALUE);
            }
            if (metadataLength > 0) {
                metadata.addComponent(true, buf.retainedSlice(metadataIndex, metadataLength));
            }
        }
        if (dataLength > 0) {
            if (data == null) {
                data = alloc.compositeBuffer(Integer.MAX_VALUE);
            }
            data.addComponent(true, buf.retainedSlice(dataIndex, dataLength));
        }
        return null;
    }

    /** Metadata and data bytes added so far. */
    public long size() {
        return size;
    }

    /**
     * Hands over the joined metadata: null if no fragment had M, an empty buffer if they had M but no bytes. The
     * caller owns what it gets and releases it; the assembler forgets it.
     */
    public ByteBuf takeMetadata() {
        ByteBuf m = metadata;
        metadata = null;
        return m;
    }

    /** Hands over the joined data, or null when there was none. The caller owns it; the assembler forgets it. */
    public ByteBuf takeData() {
        ByteBuf d = data;
        data = null;
        return d;
    }

    /** Releases what the assembler still holds (nothing that was taken). Safe to call more than once. */
    public void release() {
        if (metadata != null) {
            metadata.release();
            metadata = null;
        }
        if (data != null) {
            data.release();
            data = null;
        }
    }
}
