package dev.sluice.frame.metadata;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A reusable, allocation-free view of one {@link AuthMetadata} entry: its auth type and, for
 * {@link WellKnownAuthType#SIMPLE}, where the username and the password are.
 *
 * <pre>{@code
 * AuthMetadataReader r = reader.wrap(buf, c.contentIndex(), c.contentLength());
 * if (r.wellKnownAuthType() == WellKnownAuthType.BEARER) {
 *     check(buf, r.payloadIndex(), r.payloadLength());
 * }
 * }</pre>
 *
 * <p>{@link #wrap} checks the layout and throws a {@link MalformedMetadataException} that quotes positions and
 * lengths, never the bytes (they are secrets): no byte at all, a custom type name running past the end, a simple
 * payload without its 2-byte username length or with a username running past the end. A type named by a string
 * that is a well-known name ({@code "simple"}, {@code "bearer"}) is that type, as the extension allows, and its
 * payload is checked the same way. A reserved id (0x02..0x7F) or another name is not malformed: its payload is the
 * rest of the entry, and {@link #wellKnownAuthType()} is null. An empty username is not malformed either (the
 * layout allows it, and rsocket-java can send one); refusing it is the caller's policy.
 *
 * <p>Not thread-safe: one reader per thread, reused with {@link #wrap}.
 */
public final class AuthMetadataReader {

    private ByteBuf buf;
    private int authTypeId = -1;
    private int authTypeIndex = -1;
    private int authTypeLength;
    private WellKnownAuthType wellKnown;
    private int payloadIndex;
    private int payloadLength;
    private int usernameLength = -1;

    /**
     * Points the reader at the entry in {@code [index, index + length)} of {@code buf} and checks its layout;
     * returns the reader.
     *
     * @throws MalformedMetadataException if the bytes do not follow the layout (the reader is then cleared)
     * @throws IllegalArgumentException if the range lies outside the buffer's written bytes
     */
    public AuthMetadataReader wrap(ByteBuf buf, int index, int length) {
        if (buf == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (index < 0 || length < 0 || index > buf.writerIndex() - length) {
            throw new IllegalArgumentException("authentication metadata range [" + index + ", "
                + ((long) index + length) + ") outside buffer writerIndex " + buf.writerIndex());
        }
        clear();
        if (length == 0) {
            throw new MalformedMetadataException("authentication metadata is empty: need at least its auth type byte");
        }
        int end = index + length;
        int first = buf.getUnsignedByte(index);
        int p = index + 1;
        WellKnownAuthType known;
        int id = -1;
        int typeAt = -1;
        int typeLength = 0;
        if ((first & AuthMetadata.WELL_KNOWN_FLAG) != 0) {
            id = first & AuthMetadata.ID_OR_LENGTH_MASK;
            known = WellKnownAuthType.fromId(id);
        } else {
            typeLength = (first & AuthMetadata.ID_OR_LENGTH_MASK) + 1;
            if (typeLength > end - p) {
                throw new MalformedMetadataException("authentication metadata: custom auth type length "
                    + typeLength + " exceeds the " + (end - p) + " bytes left");
            }
            typeAt = p;
            p += typeLength;
            known = wellKnownName(buf, typeAt, typeLength);
        }
        int usernameLen = -1;
        if (known == WellKnownAuthType.SIMPLE) {
            if (end - p < AuthMetadata.USERNAME_LENGTH_SIZE) {
                throw new MalformedMetadataException("simple authentication: need a 2-byte username length, "
                    + (end - p) + " bytes left");
            }
            usernameLen = buf.getUnsignedShort(p);
            if (usernameLen > end - p - AuthMetadata.USERNAME_LENGTH_SIZE) {
                throw new MalformedMetadataException("simple authentication: username length " + usernameLen
                    + " exceeds the " + (end - p - AuthMetadata.USERNAME_LENGTH_SIZE) + " bytes left");
            }
        }
        this.buf = buf;
        this.authTypeId = id;
        this.authTypeIndex = typeAt;
        this.authTypeLength = typeLength;
        this.wellKnown = known;
        this.payloadIndex = p;
        this.payloadLength = end - p;
        this.usernameLength = usernameLen;
        return this;
    }

    /** Whether the type is named by a 7-bit id rather than a string. */
    public boolean hasAuthTypeId() {
        return authTypeId >= 0;
    }

    /** The type's 7-bit id, 0..127, or -1 when it is named by a string. */
    public int authTypeId() {
        return authTypeId;
    }

    /** The well-known type, by id or by name; null for a reserved id or another name. */
    public WellKnownAuthType wellKnownAuthType() {
        return wellKnown;
    }

    /** The absolute index of a string-named type's first byte, or -1 for a type named by id. */
    public int authTypeIndex() {
        return authTypeIndex;
    }

    /** The length of a string-named type in bytes (1..128), or 0 for a type named by id. */
    public int authTypeLength() {
        return authTypeLength;
    }

    /**
     * The type's name: the well-known name (no allocation), a custom type decoded as US-ASCII (allocates), or null
     * for a reserved id.
     */
    public String authType() {
        if (wellKnown != null) {
            return wellKnown.string();
        }
        return authTypeIndex < 0 ? null : buf.toString(authTypeIndex, authTypeLength, StandardCharsets.US_ASCII);
    }

    /** The absolute index of the payload (everything after the type). */
    public int payloadIndex() {
        return payloadIndex;
    }

    /** The payload's length in bytes, 0 or more. */
    public int payloadLength() {
        return payloadLength;
    }

    /** For {@link WellKnownAuthType#SIMPLE}: the username's length in bytes (0..65535); -1 for other types. */
    public int usernameLength() {
        return usernameLength;
    }

    /** For {@link WellKnownAuthType#SIMPLE}: the absolute index of the username; -1 for other types. */
    public int usernameIndex() {
        return usernameLength < 0 ? -1 : payloadIndex + AuthMetadata.USERNAME_LENGTH_SIZE;
    }

    /** For {@link WellKnownAuthType#SIMPLE}: the absolute index of the password; -1 for other types. */
    public int passwordIndex() {
        return usernameLength < 0 ? -1 : usernameIndex() + usernameLength;
    }

    /** For {@link WellKnownAuthType#SIMPLE}: the password's length in bytes (the rest); -1 for other types. */
    public int passwordLength() {
        return usernameLength < 0 ? -1 : payloadIndex + payloadLength - passwordIndex();
    }

    private void clear() {
        buf = null;
        authTypeId = -1;
        authTypeIndex = -1;
        authTypeLength = 0;
        wellKnown = null;
        payloadIndex = -1;
        payloadLength = 0;
        usernameLength = -1;
    }

    private static WellKnownAuthType wellKnownName(ByteBuf buf, int index, int length) {
        return nameEquals(buf, index, length, WellKnownAuthType.SIMPLE) ? WellKnownAuthType.SIMPLE
            : nameEquals(buf, index, length, WellKnownAuthType.BEARER) ? WellKnownAuthType.BEARER : null;
    }

    private static boolean nameEquals(ByteBuf buf, int index, int length, WellKnownAuthType type) {
        String s = type.string();
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buf.getByte(index + i) != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
