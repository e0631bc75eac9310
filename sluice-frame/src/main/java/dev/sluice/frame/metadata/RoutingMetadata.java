package dev.sluice.frame.metadata;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Routing metadata ({@code message/x.rsocket.routing.v0}, well-known id 0x7E): a list of tags, each a u8 length
 * and that many UTF-8 bytes. Spring's {@code @MessageMapping} routes travel as such tags inside composite
 * metadata.
 *
 * <pre>
 * +---------------+-----------------------------------------------+
 * | Tag Length (8)|  Tag, UTF-8, not NUL-terminated (&le; 255 bytes) ...
 * +---------------+-----------------------------------------------+
 *  ... repeated to the end of the metadata
 * </pre>
 *
 * <p>Encoders append at {@code out.writerIndex()}, check every tag before writing the first byte, and return the
 * bytes written; an empty tag or one over 255 UTF-8 bytes is refused (rsocket-java silently drops them, which
 * turns a caller's bug into a wrong route). Read with {@link #tags} or, without allocation, a
 * {@link RoutingMetadataCursor}. Stateless; thread-safe.
 */
public final class RoutingMetadata {

    /** The longest tag in UTF-8 bytes. */
    public static final int MAX_TAG_LENGTH = 0xFF;

    private RoutingMetadata() {
    }

    /** Appends {@code tags} in order; returns the bytes written. */
    public static int encode(ByteBuf out, Iterable<? extends CharSequence> tags) {
        int length = encodedLength(tags);
        out.ensureWritable(length);
        for (CharSequence tag : tags) {
            writeTag(out, tag, ByteBufUtil.utf8Bytes(tag));
        }
        return length;
    }

    /** Appends {@code tags} in order; returns the bytes written. */
    public static int encode(ByteBuf out, CharSequence... tags) {
        return encode(out, Arrays.asList(tags));
    }

    /** Appends one tag; returns the bytes written (1 + its UTF-8 length). */
    public static int addTag(ByteBuf out, CharSequence tag) {
        int length = tagLength(tag);
        out.ensureWritable(length);
        writeTag(out, tag, length - 1);
        return length;
    }

    private static void writeTag(ByteBuf out, CharSequence tag, int utf8Bytes) {
        out.writeByte(utf8Bytes);
        // The exact reservation: plain writeUtf8 reserves 3 bytes per char and would overflow a buffer sized by
        // encodedLength.
        ByteBufUtil.reserveAndWriteUtf8(out, tag, utf8Bytes);
    }

    /**
     * The bytes {@link #encode(ByteBuf, Iterable)} writes.
     *
     * @throws IllegalArgumentException if a tag is null, empty or longer than {@link #MAX_TAG_LENGTH} UTF-8 bytes
     */
    public static int encodedLength(Iterable<? extends CharSequence> tags) {
        if (tags == null) {
            throw new IllegalArgumentException("routing tags are null");
        }
        long n = 0;
        for (CharSequence tag : tags) {
            n += tagLength(tag);
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("routing metadata length " + n + " exceeds " + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    /**
     * The bytes one tag takes: 1 + its UTF-8 length.
     *
     * @throws IllegalArgumentException if the tag is null, empty or longer than {@link #MAX_TAG_LENGTH} bytes
     */
    public static int tagLength(CharSequence tag) {
        if (tag == null) {
            throw new IllegalArgumentException("routing tag is null");
        }
        int bytes = ByteBufUtil.utf8Bytes(tag);
        if (bytes == 0) {
            throw new IllegalArgumentException("routing tag is empty");
        }
        if (bytes > MAX_TAG_LENGTH) {
            throw new IllegalArgumentException("routing tag is " + bytes + " UTF-8 bytes, max " + MAX_TAG_LENGTH
                    + ": " + tag.subSequence(0, Math.min(tag.length(), 40)) + "...");
        }
        return 1 + bytes;
    }

    /**
     * The tags at {@code [index, index + length)} of {@code buf}, decoded as UTF-8. Allocates; use a
     * {@link RoutingMetadataCursor} on hot paths.
     *
     * @throws MalformedMetadataException if a tag runs past the end
     */
    public static List<String> tags(ByteBuf buf, int index, int length) {
        RoutingMetadataCursor c = cursor(buf, index, length);
        List<String> tags = new ArrayList<>();
        while (c.next()) {
            tags.add(c.tag());
        }
        return tags;
    }

    /** A new cursor over the routing metadata at {@code [index, index + length)} of {@code buf}. */
    public static RoutingMetadataCursor cursor(ByteBuf buf, int index, int length) {
        return new RoutingMetadataCursor().wrap(buf, index, length);
    }
}
