package dev.sluice.frame.metadata;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Authentication metadata ({@code message/x.rsocket.authentication.v0}, well-known MIME id 0x7C): an auth type,
 * named by a well-known id or a string, then the credentials in that type's layout. It travels as the content of a
 * composite metadata entry (or as the whole metadata when the connection's metadata MIME type is this one), in
 * SETUP to authenticate a connection, or in a request to authenticate that request.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------+-----------------------------------------------+
 * |1| Auth ID (7) |  Authentication payload                     ...   well-known type ({@link WellKnownAuthType})
 * +-+-------------+-----------------------------------------------+
 * |0| Len - 1 (7) |  Auth type, US-ASCII, Len bytes (1..128)    ...   custom type, then its payload
 * +-+-------------+-----------------------------------------------+
 *
 * simple (0x00):
 * +-------------------------------+-------------------------------+
 * |    Username Length (16)       |  Username, UTF-8            ...
 * +-------------------------------+-------------------------------+
 * |  Password, UTF-8: the rest of the metadata                  ...
 * +---------------------------------------------------------------+
 *
 * bearer (0x01):
 * +---------------------------------------------------------------+
 * |  Token, UTF-8: the rest of the metadata                     ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Two choices follow rsocket-java 1.1.5's {@code AuthMetadataCodec}, which Spring Security uses, rather than a
 * literal reading of the extension's text: a custom type's length is written minus one (as in composite metadata,
 * giving 1..128 chars; the text says "length"), and the username length is 16 bits (earlier drafts of
 * {@code Simple.md} had 8). The password and the token are the rest of the metadata: nothing marks their end.
 *
 * <p>This class holds the encoders; read with an {@link AuthMetadataReader}. Encoders append at
 * {@code out.writerIndex()}, check every argument before writing the first byte, borrow their buffers and return
 * the bytes written. The simple and bearer layouts are cleartext: send them over TLS or a local socket only.
 * Stateless; thread-safe.
 */
public final class AuthMetadata {

    /** The longest custom auth type, in chars (the 7-bit field holds length - 1). */
    public static final int MAX_CUSTOM_TYPE_LENGTH = 128;
    /** The longest username of {@link WellKnownAuthType#SIMPLE}, in UTF-8 bytes (a u16). */
    public static final int MAX_USERNAME_LENGTH = 0xFFFF;
    /** Bytes of the simple layout's username length field. */
    public static final int USERNAME_LENGTH_SIZE = 2;

    static final int WELL_KNOWN_FLAG = 0x80;
    static final int ID_OR_LENGTH_MASK = 0x7F;

    private AuthMetadata() {
    }

    /**
     * Appends {@link WellKnownAuthType#SIMPLE} credentials.
     *
     * @param username 1..65535 UTF-8 bytes
     * @param password any length, empty included
     * @return the bytes written
     * @throws IllegalArgumentException if the username is null, empty or too long, or the password is null
     */
    public static int encodeSimple(ByteBuf out, CharSequence username, CharSequence password) {
        if (username == null) {
            throw new IllegalArgumentException("simple username is null");
        }
        if (password == null) {
            throw new IllegalArgumentException("simple password is null");
        }
        int usernameBytes = ByteBufUtil.utf8Bytes(username);
        if (usernameBytes == 0) {
            throw new IllegalArgumentException("simple username is empty");
        }
        if (usernameBytes > MAX_USERNAME_LENGTH) {
            throw new IllegalArgumentException("simple username is " + usernameBytes + " UTF-8 bytes, max "
                + MAX_USERNAME_LENGTH);
        }
        int passwordBytes = ByteBufUtil.utf8Bytes(password);
        int length = 1 + USERNAME_LENGTH_SIZE + usernameBytes + passwordBytes;
        out.ensureWritable(length);
        out.writeByte(WELL_KNOWN_FLAG | WellKnownAuthType.SIMPLE.id());
        out.writeShort(usernameBytes);
        ByteBufUtil.reserveAndWriteUtf8(out, username, usernameBytes);
        ByteBufUtil.reserveAndWriteUtf8(out, password, passwordBytes);
        return length;
    }

    /**
     * Appends a {@link WellKnownAuthType#BEARER} token.
     *
     * @param token not empty
     * @return the bytes written
     * @throws IllegalArgumentException if the token is null or empty
     */
    public static int encodeBearer(ByteBuf out, CharSequence token) {
        if (token == null) {
            throw new IllegalArgumentException("bearer token is null");
        }
        int tokenBytes = ByteBufUtil.utf8Bytes(token);
        if (tokenBytes == 0) {
            throw new IllegalArgumentException("bearer token is empty");
        }
        out.ensureWritable(1 + tokenBytes);
        out.writeByte(WELL_KNOWN_FLAG | WellKnownAuthType.BEARER.id());
        ByteBufUtil.reserveAndWriteUtf8(out, token, tokenBytes);
        return 1 + tokenBytes;
    }

    /**
     * Appends a payload under a well-known auth type id, as is (the caller wrote it in that type's layout).
     *
     * @param payload borrowed; null for none
     * @return the bytes written
     */
    public static int encode(ByteBuf out, WellKnownAuthType type, ByteBuf payload) {
        if (type == null) {
            throw new IllegalArgumentException("auth type is null");
        }
        int payloadLength = Checks.readable(payload);
        out.ensureWritable(1 + payloadLength);
        out.writeByte(WELL_KNOWN_FLAG | type.id());
        writePayload(out, payload, payloadLength);
        return 1 + payloadLength;
    }

    /**
     * Appends a payload under an auth type named by a string. A well-known type's name is refused: send it by id
     * ({@link #encode(ByteBuf, WellKnownAuthType, ByteBuf)}), as peers expect.
     *
     * @param authType 1..128 US-ASCII chars
     * @param payload borrowed; null for none
     * @return the bytes written
     * @throws IllegalArgumentException if the type is empty, too long, not US-ASCII or well-known
     */
    public static int encodeCustom(ByteBuf out, String authType, ByteBuf payload) {
        int typeLength = checkCustomType(authType);
        int payloadLength = Checks.readable(payload);
        int length = 1 + typeLength + payloadLength;
        out.ensureWritable(length);
        out.writeByte(typeLength - 1);
        out.writeCharSequence(authType, StandardCharsets.US_ASCII);
        writePayload(out, payload, payloadLength);
        return length;
    }

    /**
     * Checks a custom auth type name as {@link #encodeCustom} does.
     *
     * @return its length in bytes, 1..128
     * @throws IllegalArgumentException if the type is null, empty, too long, not US-ASCII or well-known
     */
    public static int checkCustomType(String authType) {
        int typeLength = Checks.ascii("custom auth type", authType, MAX_CUSTOM_TYPE_LENGTH);
        if (typeLength == 0) {
            throw new IllegalArgumentException("custom auth type is empty, need 1..128 US-ASCII chars");
        }
        WellKnownAuthType known = WellKnownAuthType.fromString(authType);
        if (known != null) {
            throw new IllegalArgumentException("auth type '" + authType + "' is well-known (id "
                + String.format("0x%02X", known.id()) + "): send it by id");
        }
        return typeLength;
    }

    /** A new reader of the authentication metadata at {@code [index, index + length)} of {@code buf}. */
    public static AuthMetadataReader reader(ByteBuf buf, int index, int length) {
        return new AuthMetadataReader().wrap(buf, index, length);
    }

    private static void writePayload(ByteBuf out, ByteBuf payload, int payloadLength) {
        if (payloadLength > 0) {
            out.writeBytes(payload, payload.readerIndex(), payloadLength);
        }
    }
}
