package dev.sluice.frame.metadata;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A reusable, allocation-free cursor over the entries of {@link CompositeMetadata}.
 *
 * <pre>{@code
 * CompositeMetadataCursor c = cursor.wrap(buf, metadataOffset, metadataLength);
 * while (c.next()) {
 *     if (c.mimeId() == WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.id()) {
 *         route(buf, c.contentIndex(), c.contentLength());
 *     }
 * }
 * }</pre>
 *
 * <p>The accessors describe the current entry and are valid after {@link #next()} returned true. Malformed bytes
 * (a length running past the end) make {@code next()} throw a {@link MalformedMetadataException} that quotes the
 * position and values; the cursor is then exhausted. Nothing is allocated except by {@link #mimeType()} for a
 * custom MIME type, which decodes it once per entry.
 *
 * <p>Not thread-safe: one cursor per thread (typically one per event loop), reused with {@link #wrap}.
 */
public final class CompositeMetadataCursor {

    private ByteBuf buf;
    private int start;
    private int end;
    private int position;

    private int entryIndex = -1;
    private int mimeId = -1;
    private int mimeIndex = -1;
    private int mimeLength;
    private int contentIndex = -1;
    private int contentLength;
    private String customMimeType;

    /** Points the cursor before the first entry of {@code [index, index + length)} of {@code buf}; returns it. */
    public CompositeMetadataCursor wrap(ByteBuf buf, int index, int length) {
        if (buf == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (index < 0 || length < 0 || index > buf.writerIndex() - length) {
            throw new IllegalArgumentException("composite metadata range [" + index + ", " + ((long) index + length)
                    + ") outside buffer writerIndex " + buf.writerIndex());
        }
        this.buf = buf;
        this.start = index;
        this.end = index + length;
        this.position = index;
        clearEntry();
        return this;
    }

    /**
     * Moves to the next entry.
     *
     * @return false when there are no more entries
     * @throws MalformedMetadataException if the entry's lengths run past the end of the metadata
     */
    public boolean next() {
        if (buf == null || position >= end) {
            clearEntry();
            return false;
        }
        int at = position;
        int first = buf.getUnsignedByte(at);
        int p = at + 1;
        int id = -1;
        int mimeAt = -1;
        int mimeLen = 0;
        if ((first & CompositeMetadata.WELL_KNOWN_FLAG) != 0) {
            id = first & CompositeMetadata.ID_OR_LENGTH_MASK;
        } else {
            mimeLen = first + 1;
            if (mimeLen > end - p) {
                throw malformed(at, "MIME type length " + mimeLen + " exceeds " + (end - p) + " bytes left");
            }
            mimeAt = p;
            p += mimeLen;
        }
        if (end - p < 3) {
            throw malformed(at, "content length field needs 3 bytes, " + (end - p) + " left");
        }
        int length = buf.getUnsignedMedium(p);
        p += 3;
        if (length > end - p) {
            throw malformed(at, "content length " + length + " exceeds " + (end - p) + " bytes left");
        }
        entryIndex = at;
        mimeId = id;
        mimeIndex = mimeAt;
        mimeLength = mimeLen;
        contentIndex = p;
        contentLength = length;
        customMimeType = null;
        position = p + length;
        return true;
    }

    /** The absolute index of the current entry's first byte. */
    public int entryIndex() {
        return entryIndex;
    }

    /** Whether the current entry names its MIME type by a 7-bit id. */
    public boolean hasMimeId() {
        return mimeId >= 0;
    }

    /** The current entry's MIME id, 0..127, or -1 when it names its MIME type as a string. */
    public int mimeId() {
        return mimeId;
    }

    /** The current entry's well-known MIME type, or null for a string or an unassigned id. */
    public WellKnownMimeType wellKnownMimeType() {
        return WellKnownMimeType.fromId(mimeId);
    }

    /**
     * The current entry's MIME type: the well-known string for an assigned id (no allocation), the decoded string
     * for a custom type (allocated once per entry), or null for an unassigned id.
     */
    public String mimeType() {
        if (mimeId >= 0) {
            WellKnownMimeType known = WellKnownMimeType.fromId(mimeId);
            return known == null ? null : known.string();
        }
        if (customMimeType == null && mimeIndex >= 0) {
            customMimeType = buf.toString(mimeIndex, mimeLength, StandardCharsets.US_ASCII);
        }
        return customMimeType;
    }

    /** The absolute index of a custom MIME type's first byte, or -1 for an entry with an id. */
    public int mimeTypeIndex() {
        return mimeIndex;
    }

    /** The length of a custom MIME type in bytes (1..128), or 0 for an entry with an id. */
    public int mimeTypeLength() {
        return mimeLength;
    }

    /**
     * Whether the current entry's MIME type is {@code mimeType}, comparing an id's string or a custom type's
     * bytes without allocating.
     */
    public boolean mimeTypeEquals(CharSequence mimeType) {
        if (mimeType == null) {
            return false;
        }
        if (mimeId >= 0) {
            WellKnownMimeType known = WellKnownMimeType.fromId(mimeId);
            return known != null && known.string().contentEquals(mimeType);
        }
        if (mimeIndex < 0 || mimeType.length() != mimeLength) {
            return false;
        }
        for (int i = 0; i < mimeLength; i++) {
            if (buf.getByte(mimeIndex + i) != mimeType.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The absolute index of the current entry's first content byte. */
    public int contentIndex() {
        return contentIndex;
    }

    /** The current entry's content length in bytes. */
    public int contentLength() {
        return contentLength;
    }

    private void clearEntry() {
        entryIndex = -1;
        mimeId = -1;
        mimeIndex = -1;
        mimeLength = 0;
        contentIndex = -1;
        contentLength = 0;
        customMimeType = null;
    }

    private MalformedMetadataException malformed(int at, String what) {
        position = end;
        clearEntry();
        // The index within the metadata, wherever it sits in its buffer: what the sender can find in its bytes.
        return new MalformedMetadataException("composite metadata entry at index " + (at - start) + ": " + what);
    }
}
