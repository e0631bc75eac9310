package dev.sluice.frame.metadata;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Composite metadata ({@code message/x.rsocket.composite-metadata.v0}): a sequence of entries, each a MIME type
 * and a content, that lets one frame carry several kinds of metadata (routing, authentication, tracing...).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------+-----------------------------------------------+
 * |1| MIME ID (7) |            Content Length (24)                |    well-known MIME type
 * +-+-------------+-----------------------------------------------+
 * |0| Len - 1 (7) |  MIME type, US-ASCII, Len bytes (1..128)    ...   custom MIME type, then
 * +-+-------------+-----------------------------------------------+   the content length (24)
 * |               Content, Content Length bytes                 ...
 * +---------------------------------------------------------------+
 *  ... repeated to the end of the metadata
 * </pre>
 *
 * <p>A custom MIME type's length is written minus one, as rsocket-java and rsocket-rust do (the extension's text
 * does not say so, the implementations agree), which gives a range of 1..128 chars. Entries keep their order and
 * may repeat a MIME type.
 *
 * <p>This class holds the encoders; read with a {@link CompositeMetadataCursor}. Encoders append at
 * {@code out.writerIndex()}, borrow their content buffers (read from the reader index, never moved or released),
 * check every argument before writing, and return the bytes written. Stateless; thread-safe.
 */
public final class CompositeMetadata {

    /** The longest custom MIME type, in chars (the 7-bit field holds length - 1). */
    public static final int MAX_CUSTOM_MIME_LENGTH = 128;
    /** The longest entry content the 24-bit length can carry. */
    public static final int MAX_CONTENT_LENGTH = 0xFFFFFF;
    /** Bytes of an entry with a well-known MIME type, before its content. */
    public static final int WELL_KNOWN_HEADER_LENGTH = 4;

    static final int WELL_KNOWN_FLAG = 0x80;
    static final int ID_OR_LENGTH_MASK = 0x7F;

    private CompositeMetadata() {
    }

    /**
     * Appends an entry, naming the MIME type by its well-known id when it has one that Java peers understand, and
     * as a string otherwise (so {@code application/x-capnp} and {@code application/x-flatbuffers}, unknown to
     * rsocket-java 1.1.5, go as strings).
     *
     * @param mimeType the entry's MIME type; a custom one must be 1..128 US-ASCII chars
     * @param content borrowed; null for empty content
     * @return the bytes written
     * @throws IllegalArgumentException if the MIME type cannot be encoded or the content exceeds
     *     {@link #MAX_CONTENT_LENGTH}
     */
    public static int addEntry(ByteBuf out, String mimeType, ByteBuf content) {
        WellKnownMimeType known = WellKnownMimeType.fromString(mimeType);
        if (known != null && known.knownToRsocketJava()) {
            return addEntry(out, known.id(), content);
        }
        return addCustomEntry(out, mimeType, content);
    }

    /** Appends an entry with a well-known MIME type by its id. */
    public static int addEntry(ByteBuf out, WellKnownMimeType mimeType, ByteBuf content) {
        return addEntry(out, mimeType.id(), content);
    }

    /**
     * Appends an entry that names its MIME type by a 7-bit id, which need not be assigned yet (the caller takes
     * responsibility for the peer understanding it).
     *
     * @param wellKnownId 0..127
     * @param content borrowed; null for empty content
     * @return the bytes written
     * @throws IllegalArgumentException if the id is outside 0..127 or the content exceeds
     *     {@link #MAX_CONTENT_LENGTH}
     */
    public static int addEntry(ByteBuf out, int wellKnownId, ByteBuf content) {
        if (wellKnownId < 0 || wellKnownId > WellKnownMimeType.MAX_ID) {
            throw new IllegalArgumentException("well-known MIME id outside 0..127: " + wellKnownId);
        }
        int contentLength = contentLength(content);
        int length = WELL_KNOWN_HEADER_LENGTH + contentLength;
        out.ensureWritable(length);
        out.writeByte(WELL_KNOWN_FLAG | wellKnownId);
        out.writeMedium(contentLength);
        writeContent(out, content, contentLength);
        return length;
    }

    /**
     * Appends an entry that names its MIME type as a string, even if it has a well-known id.
     *
     * @param mimeType 1..128 US-ASCII chars
     * @param content borrowed; null for empty content
     * @return the bytes written
     * @throws IllegalArgumentException if the MIME type is empty, too long or not US-ASCII, or the content
     *     exceeds {@link #MAX_CONTENT_LENGTH}
     */
    public static int addCustomEntry(ByteBuf out, String mimeType, ByteBuf content) {
        int mimeLength = Checks.ascii("custom MIME type", mimeType, MAX_CUSTOM_MIME_LENGTH);
        if (mimeLength == 0) {
            throw new IllegalArgumentException("custom MIME type is empty, need 1..128 US-ASCII chars");
        }
        int contentLength = contentLength(content);
        int length = 1 + mimeLength + 3 + contentLength;
        out.ensureWritable(length);
        out.writeByte(mimeLength - 1);
        out.writeCharSequence(mimeType, StandardCharsets.US_ASCII);
        out.writeMedium(contentLength);
        writeContent(out, content, contentLength);
        return length;
    }

    /**
     * Appends a routing entry ({@link WellKnownMimeType#MESSAGE_RSOCKET_ROUTING}) whose content is {@code tags}
     * encoded by {@link RoutingMetadata}, without an intermediate buffer.
     *
     * @return the bytes written
     * @throws IllegalArgumentException if a tag is empty or longer than 255 UTF-8 bytes
     */
    public static int addRoutingEntry(ByteBuf out, Iterable<? extends CharSequence> tags) {
        int contentLength = RoutingMetadata.encodedLength(tags);
        if (contentLength > MAX_CONTENT_LENGTH) {
            throw new IllegalArgumentException("routing content length " + contentLength + " exceeds "
                    + MAX_CONTENT_LENGTH);
        }
        out.ensureWritable(WELL_KNOWN_HEADER_LENGTH + contentLength);
        out.writeByte(WELL_KNOWN_FLAG | WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.id());
        out.writeMedium(contentLength);
        RoutingMetadata.encode(out, tags);
        return WELL_KNOWN_HEADER_LENGTH + contentLength;
    }

    /**
     * The bytes {@link #addEntry(ByteBuf, String, ByteBuf)} writes for a MIME type and {@code contentLength}
     * bytes of content. Does not validate; a custom MIME type counts one byte per char. Saturates at
     * {@link Integer#MAX_VALUE}.
     */
    public static int entryLength(String mimeType, int contentLength) {
        WellKnownMimeType known = WellKnownMimeType.fromString(mimeType);
        long header = known != null && known.knownToRsocketJava()
                ? WELL_KNOWN_HEADER_LENGTH
                : 1 + (mimeType == null ? 0 : mimeType.length()) + 3;
        return Checks.saturatedInt(header + contentLength);
    }

    /** A new cursor over the composite metadata at {@code [index, index + length)} of {@code buf}. */
    public static CompositeMetadataCursor cursor(ByteBuf buf, int index, int length) {
        return new CompositeMetadataCursor().wrap(buf, index, length);
    }

    private static int contentLength(ByteBuf content) {
        int n = Checks.readable(content);
        if (n > MAX_CONTENT_LENGTH) {
            throw new IllegalArgumentException("composite metadata content length " + n + " exceeds "
                    + MAX_CONTENT_LENGTH);
        }
        return n;
    }

    private static void writeContent(ByteBuf out, ByteBuf content, int contentLength) {
        if (contentLength > 0) {
            out.writeBytes(content, content.readerIndex(), contentLength);
        }
    }
}
