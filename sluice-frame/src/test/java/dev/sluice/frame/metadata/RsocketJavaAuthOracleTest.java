package dev.sluice.frame.metadata;

import static dev.sluice.frame.TestBuffers.readable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.frame.TestBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.metadata.AuthMetadataCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Authentication metadata checked against rsocket-java 1.1.5's {@code AuthMetadataCodec} (what Spring Security
 * reads and writes), in both directions, including the two places where it departs from the extension's text:
 * the custom type's length minus one and the 16-bit username length.
 */
class RsocketJavaAuthOracleTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private final TestBuffers bufs = new TestBuffers();
    private final AuthMetadataReader reader = new AuthMetadataReader();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void simpleOursToTheirs() {
        ByteBuf out = bufs.buffer();
        AuthMetadata.encodeSimple(out, "caf\u00e9-user", "s3cr\u00eat");
        assertThat(AuthMetadataCodec.isWellKnownAuthType(out)).isTrue();
        assertThat(AuthMetadataCodec.readWellKnownAuthType(out))
            .isEqualTo(io.rsocket.metadata.WellKnownAuthType.SIMPLE);
        assertThat(new String(AuthMetadataCodec.readUsernameAsCharArray(out))).isEqualTo("caf\u00e9-user");
        assertThat(new String(AuthMetadataCodec.readPasswordAsCharArray(out))).isEqualTo("s3cr\u00eat");
    }

    @Test
    void bearerOursToTheirs() {
        ByteBuf out = bufs.buffer();
        AuthMetadata.encodeBearer(out, "eyJhbGciOiJIUzI1NiJ9.e30.sig");
        assertThat(AuthMetadataCodec.readWellKnownAuthType(out))
            .isEqualTo(io.rsocket.metadata.WellKnownAuthType.BEARER);
        assertThat(new String(AuthMetadataCodec.readBearerTokenAsCharArray(out)))
            .isEqualTo("eyJhbGciOiJIUzI1NiJ9.e30.sig");
    }

    @Test
    void customOursToTheirs() {
        ByteBuf out = bufs.buffer();
        AuthMetadata.encodeCustom(out, "x.hmac-sha256", bufs.utf8("mac-bytes"));
        assertThat(AuthMetadataCodec.isWellKnownAuthType(out)).isFalse();
        assertThat(AuthMetadataCodec.readCustomAuthType(out).toString()).isEqualTo("x.hmac-sha256");
        assertThat(AuthMetadataCodec.readPayload(out).toString(StandardCharsets.UTF_8)).isEqualTo("mac-bytes");
    }

    @Test
    void simpleTheirsToOurs() {
        ByteBuf theirs = bufs.track(AuthMetadataCodec.encodeSimpleMetadata(ALLOC, "\u00fcser".toCharArray(),
            "pa:ss".toCharArray()));
        AuthMetadataReader r = reader.wrap(theirs, theirs.readerIndex(), theirs.readableBytes());
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.SIMPLE);
        assertThat(theirs.toString(r.usernameIndex(), r.usernameLength(), StandardCharsets.UTF_8))
            .isEqualTo("\u00fcser");
        assertThat(theirs.toString(r.passwordIndex(), r.passwordLength(), StandardCharsets.UTF_8))
            .isEqualTo("pa:ss");
        // Byte for byte what we write.
        ByteBuf ours = bufs.buffer();
        AuthMetadata.encodeSimple(ours, "\u00fcser", "pa:ss");
        assertThat(readable(theirs)).isEqualTo(readable(ours));
    }

    @Test
    void bearerTheirsToOurs() {
        ByteBuf theirs = bufs.track(AuthMetadataCodec.encodeBearerMetadata(ALLOC, "tok\u20ac".toCharArray()));
        AuthMetadataReader r = reader.wrap(theirs, theirs.readerIndex(), theirs.readableBytes());
        assertThat(r.wellKnownAuthType()).isEqualTo(WellKnownAuthType.BEARER);
        assertThat(theirs.toString(r.payloadIndex(), r.payloadLength(), StandardCharsets.UTF_8)).isEqualTo("tok\u20ac");
        ByteBuf ours = bufs.buffer();
        AuthMetadata.encodeBearer(ours, "tok\u20ac");
        assertThat(readable(theirs)).isEqualTo(readable(ours));
    }

    @Test
    void customTheirsToOurs() {
        ByteBuf payload = ALLOC.buffer().writeBytes(new byte[] {1, 2, 3});
        // Takes ownership of payload (a composite of the type header and it).
        ByteBuf theirs = bufs.track(AuthMetadataCodec.encodeMetadata(ALLOC, "a".repeat(128), payload));
        AuthMetadataReader r = reader.wrap(theirs, theirs.readerIndex(), theirs.readableBytes());
        assertThat(r.hasAuthTypeId()).isFalse();
        assertThat(r.authType()).isEqualTo("a".repeat(128));
        assertThat(TestBuffers.bytes(theirs, r.payloadIndex(), r.payloadLength())).containsExactly(1, 2, 3);
    }

    @Test
    void emptyUsernameFromTheirsIsReadAsEmpty() {
        // rsocket-java encodes an empty username without complaint; the layout stays readable, and refusing it
        // is left to the server's policy.
        ByteBuf theirs = bufs.track(AuthMetadataCodec.encodeSimpleMetadata(ALLOC, new char[0], "p".toCharArray()));
        AuthMetadataReader r = reader.wrap(theirs, theirs.readerIndex(), theirs.readableBytes());
        assertThat(r.usernameLength()).isZero();
        assertThat(r.passwordLength()).isEqualTo(1);
    }
}
