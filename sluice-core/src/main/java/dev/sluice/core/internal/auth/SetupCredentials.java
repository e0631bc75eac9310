package dev.sluice.core.internal.auth;

import dev.sluice.core.Credentials;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.metadata.AuthMetadataReader;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.MalformedMetadataException;
import dev.sluice.frame.metadata.WellKnownAuthType;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the credentials a client sent in its SETUP metadata, or says precisely why there are none to read. The
 * reasons go to the client in ERROR[REJECTED_SETUP], so they quote lengths, positions and type ids, never the
 * bytes of a credential. Stateless; thread-safe.
 *
 * <p>Where credentials are looked for, by the SETUP's metadata MIME type: composite metadata
 * ({@code message/x.rsocket.composite-metadata.v0}) holds them in its one entry of type
 * {@code message/x.rsocket.authentication.v0} (by id 0x7C or by name); metadata of that type itself is all
 * credentials. Any other MIME type carries none.
 */
public final class SetupCredentials {

    /** The reason for a SETUP without credentials. */
    public static final String MISSING = "missing credentials";

    static final String COMPOSITE = WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.string();
    static final String AUTHENTICATION = WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.string();

    private SetupCredentials() {
    }

    /**
     * The credentials in {@code metadata} (borrowed; {@code hasMetadata} false when SETUP had none).
     *
     * @throws RejectedSetupException when there are none, or they are malformed or of a reserved type
     */
    public static Credentials read(String metadataMimeType, ByteBuf metadata, boolean hasMetadata) {
        boolean composite = COMPOSITE.equals(metadataMimeType);
        if (!composite && !AUTHENTICATION.equals(metadataMimeType)) {
            throw new RejectedSetupException(MISSING + ": metadata MIME type '" + metadataMimeType
                + "' carries none, use " + COMPOSITE);
        }
        if (!hasMetadata || metadata.readableBytes() == 0) {
            throw new RejectedSetupException(MISSING);
        }
        int index = metadata.readerIndex();
        int length = metadata.readableBytes();
        if (composite) {
            long entry = authEntry(metadata, index, length);
            if (entry < 0) {
                throw new RejectedSetupException(MISSING);
            }
            index = (int) (entry >>> 32);
            length = (int) entry;
        }
        return credentials(metadata, index, length);
    }

    /**
     * The only authentication entry of the composite metadata at {@code [index, index + length)}, as its content
     * index (high 32 bits) and length (low 32 bits), or -1 when there is none.
     */
    private static long authEntry(ByteBuf buf, int index, int length) {
        CompositeMetadataCursor c = new CompositeMetadataCursor().wrap(buf, index, length);
        long found = -1;
        try {
            while (c.next()) {
                if (c.mimeId() == WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.id()
                    || !c.hasMimeId() && c.mimeTypeEquals(AUTHENTICATION)) {
                    if (found >= 0) {
                        // Two sets of credentials: which one the server checked would be a guess for the client.
                        throw new RejectedSetupException("malformed SETUP metadata: more than one "
                            + "authentication entry");
                    }
                    found = ((long) c.contentIndex() << 32) | c.contentLength();
                }
            }
        } catch (MalformedMetadataException e) {
            throw new RejectedSetupException("malformed SETUP metadata: " + e.getMessage());
        }
        return found;
    }

    private static Credentials credentials(ByteBuf buf, int index, int length) {
        AuthMetadataReader r;
        try {
            r = new AuthMetadataReader().wrap(buf, index, length);
        } catch (MalformedMetadataException e) {
            throw malformed(e.getMessage());
        }
        WellKnownAuthType type = r.wellKnownAuthType();
        if (type == WellKnownAuthType.SIMPLE) {
            if (r.usernameLength() == 0) {
                throw malformed("simple username is empty");
            }
            return Credentials.simple(utf8(buf, r.usernameIndex(), r.usernameLength(), "simple username"),
                utf8(buf, r.passwordIndex(), r.passwordLength(), "simple password"));
        }
        if (type == WellKnownAuthType.BEARER) {
            if (r.payloadLength() == 0) {
                throw malformed("bearer token is empty");
            }
            return Credentials.bearer(utf8(buf, r.payloadIndex(), r.payloadLength(), "bearer token"));
        }
        if (r.hasAuthTypeId()) {
            throw new RejectedSetupException("unsupported authentication type: well-known id "
                + String.format("0x%02X", r.authTypeId()) + " is reserved");
        }
        for (int i = 0; i < r.authTypeLength(); i++) {
            if (buf.getByte(r.authTypeIndex() + i) < 0) {
                throw malformed("custom auth type is not US-ASCII at byte " + i);
            }
        }
        return Credentials.custom(r.authType(), ByteBufUtil.getBytes(buf, r.payloadIndex(), r.payloadLength()));
    }

    /** Strict UTF-8: a credential that is not valid UTF-8 is refused, not patched with replacement characters. */
    private static String utf8(ByteBuf buf, int index, int length, String what) {
        if (length == 0) {
            return "";
        }
        ByteBuffer bytes = buf.nioBufferCount() == 1 ? buf.nioBuffer(index, length)
            : ByteBuffer.wrap(ByteBufUtil.getBytes(buf, index, length));
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw malformed(what + " is not valid UTF-8");
        }
    }

    private static RejectedSetupException malformed(String why) {
        return new RejectedSetupException("malformed authentication metadata: " + why);
    }
}
