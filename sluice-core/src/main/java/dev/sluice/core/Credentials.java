package dev.sluice.core;

import dev.sluice.frame.metadata.AuthMetadata;
import dev.sluice.frame.metadata.WellKnownAuthType;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;

/**
 * What a client proves its identity with, as the authentication extension carries it in SETUP
 * ({@code message/x.rsocket.authentication.v0}): a username and password ({@link Simple}), a token
 * ({@link Bearer}), or a payload under a type of the application's own ({@link Custom}).
 *
 * <p>A client attaches them with {@link RSocketConnector#authentication}; a server's {@link SetupAuthenticator}
 * receives them. {@code toString()} never shows a password, a token or a custom payload. Simple and bearer
 * credentials cross the wire in cleartext: use them over TLS or a Unix domain socket.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface Credentials permits Credentials.Simple, Credentials.Bearer, Credentials.Custom {

    /** The auth type's name: {@code "simple"}, {@code "bearer"} or the custom type. */
    String authType();

    /**
     * A username and password (auth type {@code simple}, sent by its well-known id 0x00).
     *
     * @param username 1..65535 UTF-8 bytes
     * @param password any, empty included; not null
     * @throws IllegalArgumentException if the username is null, empty or too long, or the password is null
     */
    static Simple simple(String username, String password) {
        return new Simple(username, password);
    }

    /**
     * A bearer token (auth type {@code bearer}, sent by its well-known id 0x01), e.g. a JWT.
     *
     * @throws IllegalArgumentException if the token is null or empty
     */
    static Bearer bearer(String token) {
        return new Bearer(token);
    }

    /**
     * A payload under a type of the application's own, sent by name.
     *
     * @param authType 1..128 US-ASCII chars, not {@code simple} or {@code bearer}
     * @param payload copied; null for none
     * @throws IllegalArgumentException if the type is empty, too long, not US-ASCII or well-known
     */
    static Custom custom(String authType, byte[] payload) {
        return new Custom(authType, payload);
    }

    /** Username and password. */
    record Simple(String username, String password) implements Credentials {

        /** Checks as {@link Credentials#simple}. */
        public Simple {
            if (username == null || password == null) {
                throw new IllegalArgumentException("simple credentials need a username and a password, got "
                    + (username == null ? "no username" : "no password"));
            }
            int bytes = ByteBufUtil.utf8Bytes(username);
            if (bytes == 0 || bytes > AuthMetadata.MAX_USERNAME_LENGTH) {
                throw new IllegalArgumentException("simple username must be 1.." + AuthMetadata.MAX_USERNAME_LENGTH
                    + " UTF-8 bytes, got " + bytes);
            }
        }

        @Override
        public String authType() {
            return WellKnownAuthType.SIMPLE.string();
        }

        @Override
        public String toString() {
            return "Simple[username=" + username + ", password=(hidden)]";
        }
    }

    /** A bearer token. */
    record Bearer(String token) implements Credentials {

        /** Checks as {@link Credentials#bearer}. */
        public Bearer {
            if (token == null || token.isEmpty()) {
                throw new IllegalArgumentException("bearer token must not be " + (token == null ? "null" : "empty"));
            }
        }

        @Override
        public String authType() {
            return WellKnownAuthType.BEARER.string();
        }

        @Override
        public String toString() {
            return "Bearer[token=(hidden)]";
        }
    }

    /** A payload under the application's own auth type. */
    record Custom(String authType, byte[] payload) implements Credentials {

        /** Checks as {@link Credentials#custom}; copies the payload. */
        public Custom {
            AuthMetadata.checkCustomType(authType);
            payload = payload == null ? new byte[0] : payload.clone();
        }

        /** A copy of the payload. */
        @Override
        public byte[] payload() {
            return payload.clone();
        }

        /** The payload's length in bytes, without copying it. */
        public int payloadLength() {
            return payload.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Custom c && authType.equals(c.authType) && Arrays.equals(payload, c.payload);
        }

        @Override
        public int hashCode() {
            return 31 * authType.hashCode() + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Custom[authType=" + authType + ", payload=(" + payload.length + " bytes, hidden)]";
        }
    }
}
