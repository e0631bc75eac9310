package dev.sluice.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.Credentials;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.metadata.AuthMetadata;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where a server finds credentials in SETUP metadata, and the precise reason when it finds none it can use. */
class SetupCredentialsTest {

    private static final String COMPOSITE = SetupCredentials.COMPOSITE;
    private static final String AUTH = SetupCredentials.AUTHENTICATION;
    private static final int AUTH_ID = WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.id();

    private final List<ByteBuf> buffers = new ArrayList<>();

    @AfterEach
    void release() {
        buffers.forEach(ByteBuf::release);
    }

    private ByteBuf buf(Consumer<ByteBuf> writer) {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer();
        buffers.add(b);
        // A non-zero reader index, as in a received frame.
        b.writeBytes(new byte[] {7, 7}).readerIndex(2);
        writer.accept(b);
        return b;
    }

    private ByteBuf hex(String hex) {
        String t = hex.replace(" ", "");
        return buf(b -> {
            for (int i = 0; i < t.length(); i += 2) {
                b.writeByte(Integer.parseInt(t.substring(i, i + 2), 16));
            }
        });
    }

    private ByteBuf composite(Consumer<ByteBuf> auth) {
        ByteBuf content = ByteBufAllocator.DEFAULT.buffer();
        try {
            auth.accept(content);
            return buf(b -> {
                CompositeMetadata.addEntry(b, "application/x.trace", null);
                CompositeMetadata.addEntry(b, WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION, content);
                CompositeMetadata.addRoutingEntry(b, List.of("svc/method"));
            });
        } finally {
            content.release();
        }
    }

    @Test
    void simpleBearerAndCustomFromCompositeMetadata() {
        assertThat(SetupCredentials.read(COMPOSITE,
            composite(b -> AuthMetadata.encodeSimple(b, "caf\u00e9", "pw")), true))
            .isEqualTo(Credentials.simple("caf\u00e9", "pw"));
        assertThat(SetupCredentials.read(COMPOSITE, composite(b -> AuthMetadata.encodeBearer(b, "tok")), true))
            .isEqualTo(Credentials.bearer("tok"));
        ByteBuf payload = buf(b -> b.writeBytes(new byte[] {1, 2}));
        assertThat(SetupCredentials.read(COMPOSITE,
            composite(b -> AuthMetadata.encodeCustom(b, "x.hmac", payload)), true))
            .isEqualTo(Credentials.custom("x.hmac", new byte[] {1, 2}));
    }

    @Test
    void emptyPasswordIsCredentialsStill() {
        assertThat(SetupCredentials.read(AUTH, buf(b -> AuthMetadata.encodeSimple(b, "u", "")), true))
            .isEqualTo(Credentials.simple("u", ""));
    }

    @Test
    void authenticationMimeTypeMakesTheWholeMetadataTheCredentials() {
        assertThat(SetupCredentials.read(AUTH, buf(b -> AuthMetadata.encodeBearer(b, "whole")), true))
            .isEqualTo(Credentials.bearer("whole"));
    }

    @Test
    void entryNamedByItsMimeStringIsFoundToo() {
        ByteBuf content = buf(b -> AuthMetadata.encodeBearer(b, "by-name"));
        ByteBuf md = buf(b -> CompositeMetadata.addCustomEntry(b, AUTH, content));
        assertThat(SetupCredentials.read(COMPOSITE, md, true)).isEqualTo(Credentials.bearer("by-name"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        // case                          | metadata MIME type | metadata (hex; - for none) | reason
        "no metadata                     | COMPOSITE | -                  | missing credentials",
        "empty metadata                  | COMPOSITE | ''                 | missing credentials",
        "composite without auth entry    | COMPOSITE | fe00000401617069  | missing credentials",
        "another metadata MIME type      | application/binary | 81746f6b  | missing credentials: metadata MIME type"
            + " 'application/binary' carries none, use message/x.rsocket.composite-metadata.v0",
        "composite entry overruns        | COMPOSITE | fc000009 81       | malformed SETUP metadata: composite"
            + " metadata entry at index 0: content length 9 exceeds 1 bytes left",
        "two auth entries                | COMPOSITE | fc00000281 61 fc000002 8162 | malformed SETUP metadata:"
            + " more than one authentication entry",
        "empty auth entry                | COMPOSITE | fc000000          | malformed authentication metadata:"
            + " authentication metadata is empty: need at least its auth type byte",
        "truncated username length       | AUTH      | 8000              | malformed authentication metadata:"
            + " simple authentication: need a 2-byte username length, 1 bytes left",
        "username overruns               | AUTH      | 80 0009 7573657270 | malformed authentication metadata:"
            + " simple authentication: username length 9 exceeds the 5 bytes left",
        "zero-length username            | AUTH      | 80 0000 70617373  | malformed authentication metadata:"
            + " simple username is empty",
        "username not UTF-8              | AUTH      | 80 0002 c328 70   | malformed authentication metadata:"
            + " simple username is not valid UTF-8",
        "password not UTF-8              | AUTH      | 80 0001 75 ff     | malformed authentication metadata:"
            + " simple password is not valid UTF-8",
        "empty bearer token              | AUTH      | 81                | malformed authentication metadata:"
            + " bearer token is empty",
        "bearer token not UTF-8          | AUTH      | 81 e282           | malformed authentication metadata:"
            + " bearer token is not valid UTF-8",
        "reserved well-known id          | AUTH      | 85 746f6b656e     | unsupported authentication type:"
            + " well-known id 0x05 is reserved",
        "highest reserved id             | AUTH      | ff                | unsupported authentication type:"
            + " well-known id 0x7F is reserved",
        "custom type overruns            | AUTH      | 0a 6162           | malformed authentication metadata:"
            + " authentication metadata: custom auth type length 11 exceeds the 2 bytes left",
        "custom type not ASCII           | AUTH      | 01 61e9 00        | malformed authentication metadata:"
            + " custom auth type is not US-ASCII at byte 1",
    })
    void refusalsSayWhyWithoutQuotingCredentials(String name, String mime, String hex, String reason) {
        String metadataMime = mime.equals("COMPOSITE") ? COMPOSITE : mime.equals("AUTH") ? AUTH : mime;
        boolean has = !hex.equals("-");
        ByteBuf md = has ? hex(hex) : buf(b -> { });
        assertThatThrownBy(() -> SetupCredentials.read(metadataMime, md, has))
            .isInstanceOf(RejectedSetupException.class)
            .hasMessage(reason);
    }

    @Test
    void refusalNeverQuotesThePasswordOrToken() {
        // A password that is not UTF-8 after a readable prefix: the reason names the field, not its bytes.
        ByteBuf md = buf(b -> {
            b.writeByte(0x80).writeShort(4).writeBytes("user".getBytes()).writeBytes("hunter2".getBytes())
                .writeByte(0xFF);
        });
        assertThatThrownBy(() -> SetupCredentials.read(AUTH, md, true))
            .hasMessage("malformed authentication metadata: simple password is not valid UTF-8")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("user"));
        assertThat(AUTH_ID).isEqualTo(0x7C);
    }
}
