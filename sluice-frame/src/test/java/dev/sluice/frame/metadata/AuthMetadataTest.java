package dev.sluice.frame.metadata;

import static dev.sluice.frame.TestBuffers.readable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.frame.TestBuffers;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The authentication metadata layout: exact bytes written, what the reader finds, and what it refuses. */
class AuthMetadataTest {

    private final TestBuffers bufs = new TestBuffers();
    private final AuthMetadataReader reader = new AuthMetadataReader();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void simpleBytesAreTypeThenU16UsernameLengthThenUsernameThenPassword() {
        ByteBuf out = bufs.prefixed();
        int n = AuthMetadata.encodeSimple(out, "user", "pass");
        assertThat(n).isEqualTo(11);
        assertThat(readable(out.skipBytes(TestBuffers.PREFIX.length))).containsExactly(
            0x80, 0x00, 0x04, 'u', 's', 'e', 'r', 'p', 'a', 's', 's');
    }

    @Test
    void bearerBytesAreTypeThenToken() {
        ByteBuf out = bufs.buffer();
        assertThat(AuthMetadata.encodeBearer(out, "t0k")).isEqualTo(4);
        assertThat(readable(out)).containsExactly(0x81, 't', '0', 'k');
    }

    @Test
    void customTypeLengthIsWrittenMinusOne() {
        ByteBuf out = bufs.buffer();
        assertThat(AuthMetadata.encodeCustom(out, "x-hmac", bufs.utf8("sig"))).isEqualTo(10);
        assertThat(readable(out)).containsExactly(0x05, 'x', '-', 'h', 'm', 'a', 'c', 's', 'i', 'g');
    }

    @Test
    void simpleReadsBackAtAnOffset() {
        ByteBuf out = bufs.prefixed();
        int n = AuthMetadata.encodeSimple(out, "caf\u00e9", "p\u00e4ss w\u00f6rd");
        AuthMetadataReader r = reader.wrap(out, TestBuffers.PREFIX.length, n);
        assertThat(r.hasAuthTypeId()).isTrue();
        assertThat(r.authTypeId()).isZero();
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.SIMPLE);
        assertThat(r.authType()).isEqualTo("simple");
        assertThat(r.usernameLength()).isEqualTo(5);
        assertThat(out.toString(r.usernameIndex(), r.usernameLength(), StandardCharsets.UTF_8)).isEqualTo("caf\u00e9");
        assertThat(out.toString(r.passwordIndex(), r.passwordLength(), StandardCharsets.UTF_8))
            .isEqualTo("p\u00e4ss w\u00f6rd");
        assertThat(r.payloadIndex()).isEqualTo(TestBuffers.PREFIX.length + 1);
        assertThat(r.payloadLength()).isEqualTo(n - 1);
    }

    @Test
    void bearerAndCustomReadBack() {
        ByteBuf out = bufs.buffer();
        int n = AuthMetadata.encodeBearer(out, "eyJhbGciOi.x.y");
        AuthMetadataReader r = reader.wrap(out, 0, n);
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.BEARER);
        assertThat(out.toString(r.payloadIndex(), r.payloadLength(), StandardCharsets.UTF_8))
            .isEqualTo("eyJhbGciOi.x.y");
        assertThat(r.usernameLength()).isEqualTo(-1);
        assertThat(r.usernameIndex()).isEqualTo(-1);
        assertThat(r.passwordLength()).isEqualTo(-1);

        ByteBuf custom = bufs.buffer();
        int m = AuthMetadata.encodeCustom(custom, "t".repeat(128), null);
        r = reader.wrap(custom, 0, m);
        assertThat(r.hasAuthTypeId()).isFalse();
        assertThat(r.authTypeId()).isEqualTo(-1);
        assertThat(r.wellKnownAuthType()).isNull();
        assertThat(r.authType()).isEqualTo("t".repeat(128));
        assertThat(r.authTypeIndex()).isEqualTo(1);
        assertThat(r.authTypeLength()).isEqualTo(128);
        assertThat(r.payloadLength()).isZero();
    }

    @Test
    void wellKnownNameSentAsAStringIsThatType() {
        // The extension lets any type travel as a string; a peer that does so still means simple.
        ByteBuf b = bufs.of(0x05, 's', 'i', 'm', 'p', 'l', 'e', 0x00, 0x01, 'u', 'p', 'w');
        AuthMetadataReader r = reader.wrap(b, 0, b.readableBytes());
        assertThat(r.hasAuthTypeId()).isFalse();
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.SIMPLE);
        assertThat(b.toString(r.usernameIndex(), r.usernameLength(), StandardCharsets.UTF_8)).isEqualTo("u");
        assertThat(b.toString(r.passwordIndex(), r.passwordLength(), StandardCharsets.UTF_8)).isEqualTo("pw");
        // The same for bearer (here with an empty token, which the layout allows).
        ByteBuf bearer = bufs.of(0x05, 'b', 'e', 'a', 'r', 'e', 'r');
        r = reader.wrap(bearer, 0, bearer.readableBytes());
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.BEARER);
        assertThat(r.payloadLength()).isZero();
    }

    @Test
    void reservedIdIsNotMalformed() {
        ByteBuf b = bufs.of(0x85, 'a', 'b');
        AuthMetadataReader r = reader.wrap(b, 0, 3);
        assertThat(r.authTypeId()).isEqualTo(5);
        assertThat(r.wellKnownAuthType()).isNull();
        assertThat(r.authType()).isNull();
        assertThat(r.payloadLength()).isEqualTo(2);
    }

    @Test
    void emptyUsernameIsLayoutValid() {
        ByteBuf b = bufs.of(0x80, 0x00, 0x00, 'p');
        AuthMetadataReader r = reader.wrap(b, 0, 4);
        assertThat(r.usernameLength()).isZero();
        assertThat(r.passwordLength()).isEqualTo(1);
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @CsvSource(delimiter = '|', value = {
        // bytes (hex)                | message
        "''                           | authentication metadata is empty: need at least its auth type byte",
        "05 61 62                     | authentication metadata: custom auth type length 6 exceeds the 2 bytes left",
        "7f                           | authentication metadata: custom auth type length 128 exceeds the 0 bytes left",
        "80                           | simple authentication: need a 2-byte username length, 0 bytes left",
        "80 00                        | simple authentication: need a 2-byte username length, 1 bytes left",
        "80 00 05 75 73 65 72         | simple authentication: username length 5 exceeds the 4 bytes left",
        "80 ff ff                     | simple authentication: username length 65535 exceeds the 0 bytes left",
        "05 73 69 6d 70 6c 65 00      | simple authentication: need a 2-byte username length, 1 bytes left",
    })
    void malformedEntriesAreRefusedQuotingLengthsOnly(String hex, String message) {
        byte[] bytes = hex(hex);
        ByteBuf b = bufs.exact(bytes);
        assertThatThrownBy(() -> reader.wrap(b, 0, bytes.length))
            .isInstanceOf(MalformedMetadataException.class)
            .hasMessage(message);
        assertThat(reader.wellKnownAuthType()).isNull();
        assertThat(reader.payloadLength()).isZero();
    }

    @Test
    void rangeOutsideTheBufferIsAnArgumentError() {
        ByteBuf b = bufs.of(0x81, 't');
        assertThatThrownBy(() -> reader.wrap(b, 1, 5))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("authentication metadata range [1, 6) outside buffer writerIndex 2");
    }

    @Test
    void encodersCheckBeforeWriting() {
        ByteBuf out = bufs.buffer();
        assertThatThrownBy(() -> AuthMetadata.encodeSimple(out, "", "p")).hasMessage("simple username is empty");
        assertThatThrownBy(() -> AuthMetadata.encodeSimple(out, null, "p")).hasMessage("simple username is null");
        assertThatThrownBy(() -> AuthMetadata.encodeSimple(out, "u", null)).hasMessage("simple password is null");
        assertThatThrownBy(() -> AuthMetadata.encodeSimple(out, "\u00e9".repeat(32768), "p"))
            .hasMessage("simple username is 65536 UTF-8 bytes, max 65535");
        assertThatThrownBy(() -> AuthMetadata.encodeBearer(out, "")).hasMessage("bearer token is empty");
        assertThatThrownBy(() -> AuthMetadata.encodeCustom(out, "", null))
            .hasMessage("custom auth type is empty, need 1..128 US-ASCII chars");
        assertThatThrownBy(() -> AuthMetadata.encodeCustom(out, "x".repeat(129), null))
            .hasMessageStartingWith("custom auth type is 129 chars, max 128");
        assertThatThrownBy(() -> AuthMetadata.encodeCustom(out, "caf\u00e9", null))
            .hasMessage("custom auth type is not US-ASCII at index 3: caf\u00e9");
        assertThatThrownBy(() -> AuthMetadata.encodeCustom(out, "bearer", null))
            .hasMessage("auth type 'bearer' is well-known (id 0x01): send it by id");
        assertThat(out.writerIndex()).isZero();
        // The longest username fits.
        assertThat(AuthMetadata.encodeSimple(out, "u".repeat(65535), "")).isEqualTo(1 + 2 + 65535);
    }

    @Test
    void wellKnownAuthTypesByIdAndName() {
        assertThat(WellKnownAuthType.fromId(0)).isEqualTo(WellKnownAuthType.SIMPLE);
        assertThat(WellKnownAuthType.fromId(1)).isEqualTo(WellKnownAuthType.BEARER);
        assertThat(WellKnownAuthType.fromId(2)).isNull();
        assertThat(WellKnownAuthType.fromId(-1)).isNull();
        assertThat(WellKnownAuthType.fromString("bearer")).isEqualTo(WellKnownAuthType.BEARER);
        assertThat(WellKnownAuthType.fromString("Bearer")).isNull();
        assertThat(WellKnownAuthType.fromString(null)).isNull();
        assertThat(WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.id()).isEqualTo(0x7C);
    }

    private static byte[] hex(String s) {
        String t = s.replace(" ", "");
        byte[] b = new byte[t.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(t.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
