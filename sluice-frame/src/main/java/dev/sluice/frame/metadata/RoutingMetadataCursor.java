package dev.sluice.frame.metadata;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A reusable, allocation-free cursor over the tags of {@link RoutingMetadata}.
 *
 * <p>The accessors describe the current tag and are valid after {@link #next()} returned true. A tag whose length
 * runs past the end makes {@code next()} throw a {@link MalformedMetadataException}; the cursor is then exhausted.
 * Only {@link #tag()} allocates.
 *
 * <p>Not thread-safe: one cursor per thread, reused with {@link #wrap}.
 */
public final class RoutingMetadataCursor {

    private ByteBuf buf;
    private int end;
    private int position;
    private int tagIndex = -1;
    private int tagLength;

    /** Points the cursor before the first tag of {@code [index, index + length)} of {@code buf}; returns it. */
    public RoutingMetadataCursor wrap(ByteBuf buf, int index, int length) {
        if (buf == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (index < 0 || length < 0 || index > buf.writerIndex() - length) {
            throw new IllegalArgumentException("routing metadata range [" + index + ", " + ((long) index + length)
                    + ") outside buffer writerIndex " + buf.writerIndex());
        }
        this.buf = buf;
        this.end = index + length;
        this.position = index;
        this.tagIndex = -1;
        this.tagLength = 0;
        return this;
    }

    /**
     * Moves to the next tag.
     *
     * @return false when there are no more tags
     * @throws MalformedMetadataException if the tag's length runs past the end
     */
    public boolean next() {
        if (buf == null || position >= end) {
            tagIndex = -1;
            tagLength = 0;
            return false;
        }
        int at = position;
        int length = buf.getUnsignedByte(at);
        if (length > end - at - 1) {
            position = end;
            tagIndex = -1;
            tagLength = 0;
            throw new MalformedMetadataException("routing tag at index " + at + " has length " + length
                    + ", but only " + (end - at - 1) + " bytes left");
        }
        tagIndex = at + 1;
        tagLength = length;
        position = tagIndex + length;
        return true;
    }

    /** The absolute index of the current tag's first byte. */
    public int tagIndex() {
        return tagIndex;
    }

    /** The current tag's length in bytes (0..255). */
    public int tagLength() {
        return tagLength;
    }

    /** The current tag decoded as UTF-8. Allocates. */
    public String tag() {
        return buf.toString(tagIndex, tagLength, StandardCharsets.UTF_8);
    }

    /** Whether the current tag is {@code tag}; allocation-free when {@code tag} is US-ASCII. */
    public boolean tagEquals(CharSequence tag) {
        if (tag == null || tagIndex < 0) {
            return false;
        }
        int n = tag.length();
        for (int i = 0; i < n; i++) {
            if (tag.charAt(i) > 0x7F) {
                return tag().contentEquals(tag);
            }
        }
        if (n != tagLength) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (buf.getByte(tagIndex + i) != tag.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
