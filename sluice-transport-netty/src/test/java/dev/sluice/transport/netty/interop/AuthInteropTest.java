package dev.sluice.transport.netty.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Credentials;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SetupAuthenticator;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.metadata.AuthMetadataCodec;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.WellKnownAuthType;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.util.ByteBufPayload;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Authentication at SETUP across implementations: rsocket-java 1.1.5's client sending simple and bearer
 * credentials (encoded by its {@code AuthMetadataCodec}) to a Sluice server that accepts or refuses them, Sluice's
 * client sending credentials that rsocket-java's server decodes with that codec, and malformed entries answered
 * with ERROR[REJECTED_SETUP] and a precise reason while the server goes on serving.
 */
class AuthInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final String COMPOSITE = WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString();

    /** Accepts alice/wonderland and the token "good-token"; refuses anything else. */
    private static final SetupAuthenticator AUTHENTICATOR = (credentials, setup) -> {
        if (credentials instanceof Credentials.Simple s && s.username().equals("alice")
            && s.password().equals("wonderland")) {
            return Mono.just(named("user:alice"));
        }
        if (credentials instanceof Credentials.Bearer b && b.token().equals("good-token")) {
            return Mono.just(named("token-holder"));
        }
        return Mono.empty();
    };

    private final AtomicInteger accepted = new AtomicInteger();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private CloseableServer sluice;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        if (sluice != null) {
            sluice.dispose();
            sluice.onClose().block(TIMEOUT);
        }
    }

    private static Principal named(String name) {
        return () -> name;
    }

    /** A Sluice server whose handler answers each request with the principal's name and the request's data. */
    private int startSluice() {
        sluice = RSocketServer.create((setup, sendingSocket) -> {
            accepted.incrementAndGet();
            String who = setup.principal().getName();
            return Mono.just(new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    String data = p.dataUtf8();
                    p.release();
                    return Mono.just(Payload.create(who + "/" + data));
                }
            });
        }).authenticate(AUTHENTICATOR).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        return sluice.port();
    }

    /** rsocket-java's client with this SETUP metadata (composite), taken over. */
    private io.rsocket.RSocket javaClient(int port, ByteBuf setupMetadata) {
        io.rsocket.RSocket c = io.rsocket.core.RSocketConnector.create()
            .metadataMimeType(COMPOSITE)
            .setupPayload(ByteBufPayload.create(Unpooled.EMPTY_BUFFER, setupMetadata))
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create("127.0.0.1", port))
            .block(TIMEOUT);
        toClose.add(c::dispose);
        return c;
    }

    /** Composite metadata with one authentication entry holding {@code auth} (taken over). */
    private static ByteBuf composite(ByteBuf auth) {
        CompositeByteBuf md = ALLOC.compositeBuffer();
        CompositeMetadataCodec.encodeAndAddMetadata(md, ALLOC, WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION,
            auth);
        return md;
    }

    private static String ask(io.rsocket.RSocket client, String data) {
        io.rsocket.Payload p = client.requestResponse(ByteBufPayload.create(data)).block(TIMEOUT);
        try {
            return p.getDataUtf8();
        } finally {
            p.release();
        }
    }

    private static void expectRefused(io.rsocket.RSocket client, String reason) {
        StepVerifier.create(client.requestResponse(ByteBufPayload.create("x")))
            .expectErrorSatisfies(e -> assertThat(e)
                .isInstanceOf(io.rsocket.exceptions.RejectedSetupException.class)
                .hasMessage(reason))
            .verify(TIMEOUT);
    }

    @Test
    void javaClientWithSimpleCredentialsIsAcceptedAndTheHandlerKnowsWhoItIs() {
        int port = startSluice();
        io.rsocket.RSocket client = javaClient(port, composite(AuthMetadataCodec.encodeSimpleMetadata(ALLOC,
            "alice".toCharArray(), "wonderland".toCharArray())));
        assertThat(ask(client, "hi")).isEqualTo("user:alice/hi");
    }

    @Test
    void javaClientWithBearerTokenIsAccepted() {
        int port = startSluice();
        io.rsocket.RSocket client = javaClient(port, composite(AuthMetadataCodec.encodeBearerMetadata(ALLOC,
            "good-token".toCharArray())));
        assertThat(ask(client, "hi")).isEqualTo("token-holder/hi");
    }

    @Test
    void javaClientWithWrongPasswordOrTokenIsRefusedWithoutAnEcho() {
        int port = startSluice();
        expectRefused(javaClient(port, composite(AuthMetadataCodec.encodeSimpleMetadata(ALLOC,
            "alice".toCharArray(), "guess-1".toCharArray()))), "authentication failed");
        expectRefused(javaClient(port, composite(AuthMetadataCodec.encodeBearerMetadata(ALLOC,
            "stolen-token".toCharArray()))), "authentication failed");
        assertThat(accepted).hasValue(0);
    }

    @Test
    void javaClientWithoutCredentialsIsRefused() {
        int port = startSluice();
        io.rsocket.RSocket client = io.rsocket.core.RSocketConnector.create()
            .connect(io.rsocket.transport.netty.client.TcpClientTransport.create("127.0.0.1", port))
            .block(TIMEOUT);
        toClose.add(client::dispose);
        expectRefused(client, "missing credentials: metadata MIME type 'application/binary' carries none, use "
            + COMPOSITE);
        CompositeByteBuf routingOnly = ALLOC.compositeBuffer();
        CompositeMetadataCodec.encodeAndAddMetadata(routingOnly, ALLOC, WellKnownMimeType.MESSAGE_RSOCKET_ROUTING,
            Unpooled.wrappedBuffer(new byte[] {3, 'a', 'b', 'c'}));
        expectRefused(javaClient(port, routingOnly), "missing credentials");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        // case                   | auth entry content (hex)  | reason
        "truncated username length | 80 00                  | malformed authentication metadata: simple"
            + " authentication: need a 2-byte username length, 1 bytes left",
        "truncated username        | 80 0008 616c6963         | malformed authentication metadata: simple"
            + " authentication: username length 8 exceeds the 4 bytes left",
        "zero-length username      | 80 0000 73656372657421   | malformed authentication metadata: simple username"
            + " is empty",
        "unknown well-known id     | 82 736563726574          | unsupported authentication type: well-known id"
            + " 0x02 is reserved",
        "truncated custom type     | 10 6162                  | malformed authentication metadata: authentication"
            + " metadata: custom auth type length 17 exceeds the 2 bytes left",
        "empty entry               | ''                       | malformed authentication metadata: authentication"
            + " metadata is empty: need at least its auth type byte",
    })
    void malformedEntriesAreRefusedPreciselyAndTheServerGoesOn(String name, String hex, String reason) {
        int port = startSluice();
        expectRefused(javaClient(port, composite(Unpooled.wrappedBuffer(hex(hex)))), reason);
        // Nothing broke: the next client, with good credentials, is served.
        io.rsocket.RSocket good = javaClient(port, composite(AuthMetadataCodec.encodeBearerMetadata(ALLOC,
            "good-token".toCharArray())));
        assertThat(ask(good, "after")).isEqualTo("token-holder/after");
        assertThat(accepted).hasValue(1);
    }

    @Test
    void refusalNeverEchoesTheSecret() {
        // An authenticator that fails with the token in its message: the client still hears only the verdict.
        sluice = RSocketServer.create((setup, socket) -> Mono.just(new RSocket() { }))
            .authenticate((credentials, setup) -> Mono.error(new IllegalStateException("rejected token "
                + ((Credentials.Bearer) credentials).token())))
            .bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        StepVerifier.create(javaClient(sluice.port(), composite(AuthMetadataCodec.encodeBearerMetadata(ALLOC,
                "tok-SECRET-42".toCharArray()))).requestResponse(ByteBufPayload.create("x")))
            .expectErrorSatisfies(e -> assertThat(e.getMessage()).isEqualTo("authentication failed")
                .doesNotContain("SECRET"))
            .verify(TIMEOUT);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Sluice's client, rsocket-java's server

    /** What rsocket-java's server decoded from the SETUP's authentication entry, via AuthMetadataCodec. */
    private final AtomicReference<String> decoded = new AtomicReference<>();

    private int startJava(Function<String, Boolean> accept) {
        CloseableChannel channel = io.rsocket.core.RSocketServer.create((setup, sendingSocket) -> {
            String seen = decodeAuth(setup.metadataMimeType(), setup.metadata());
            decoded.set(seen);
            if (!accept.apply(seen)) {
                return Mono.error(new io.rsocket.exceptions.RejectedSetupException("refused by rsocket-java"));
            }
            return Mono.just(new io.rsocket.RSocket() {
                @Override
                public Mono<io.rsocket.Payload> requestResponse(io.rsocket.Payload p) {
                    p.release();
                    return Mono.just(ByteBufPayload.create("ok"));
                }
            });
        }).bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        toClose.add(() -> {
            channel.dispose();
            channel.onClose().block(TIMEOUT);
        });
        return channel.address().getPort();
    }

    /** "simple:user:pass", "bearer:token" or "custom:type:hex", as rsocket-java's codec reads the entry. */
    private static String decodeAuth(String mime, ByteBuf metadata) {
        if (!COMPOSITE.equals(mime)) {
            return "metadata MIME " + mime;
        }
        for (CompositeMetadata.Entry e : new CompositeMetadata(metadata, false)) {
            if (WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION.getString().equals(e.getMimeType())) {
                ByteBuf c = e.getContent();
                if (!AuthMetadataCodec.isWellKnownAuthType(c)) {
                    String type = AuthMetadataCodec.readCustomAuthType(c).toString();
                    return "custom:" + type + ":" + ByteBufUtil.hexDump(AuthMetadataCodec.readPayload(c));
                }
                WellKnownAuthType type = AuthMetadataCodec.readWellKnownAuthType(c);
                if (type == WellKnownAuthType.SIMPLE) {
                    return "simple:" + new String(AuthMetadataCodec.readUsernameAsCharArray(c)) + ":"
                        + new String(AuthMetadataCodec.readPasswordAsCharArray(c));
                }
                return type + ":" + new String(AuthMetadataCodec.readBearerTokenAsCharArray(c));
            }
        }
        return "none";
    }

    private Connection sluiceClient(int port, Credentials credentials, Function<RSocketConnector,
        RSocketConnector> options) {
        Connection c = options.apply(RSocketConnector.create().authentication(credentials))
            .connect(TcpClientTransport.create("127.0.0.1", port)).block(TIMEOUT);
        toClose.add(c::dispose);
        return c;
    }

    private static String ask(Connection c) {
        Payload p = c.requestResponse(Payload.create("q")).block(TIMEOUT);
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }

    @Test
    void sluiceSimpleCredentialsDecodeWithRsocketJava() {
        int port = startJava(seen -> true);
        assertThat(ask(sluiceClient(port, Credentials.simple("b\u00f6b", "p@ss w\u00f6rd"), o -> o)))
            .isEqualTo("ok");
        assertThat(decoded).hasValue("simple:b\u00f6b:p@ss w\u00f6rd");
    }

    @Test
    void sluiceBearerAndCustomCredentialsDecodeWithRsocketJava() {
        int port = startJava(seen -> true);
        ask(sluiceClient(port, Credentials.bearer("eyJhbGciOiJIUzI1NiJ9.e30.c2ln"), o -> o));
        assertThat(decoded).hasValue("bearer:eyJhbGciOiJIUzI1NiJ9.e30.c2ln");
        ask(sluiceClient(port, Credentials.custom("x.hmac", new byte[] {0x0a, (byte) 0xbc}), o -> o));
        assertThat(decoded).hasValue("custom:x.hmac:0abc");
    }

    @Test
    void credentialsGoFirstAndTheSetupPayloadsEntriesFollow() {
        CompositeByteBuf routing = ALLOC.compositeBuffer();
        CompositeMetadataCodec.encodeAndAddMetadata(routing, ALLOC, WellKnownMimeType.MESSAGE_RSOCKET_ROUTING,
            Unpooled.wrappedBuffer(new byte[] {2, 'h', 'i'}));
        AtomicReference<List<String>> mimes = new AtomicReference<>();
        CloseableChannel channel = io.rsocket.core.RSocketServer.create((setup, sendingSocket) -> {
            List<String> m = new ArrayList<>();
            new CompositeMetadata(setup.metadata(), false).forEach(e -> m.add(e.getMimeType()));
            mimes.set(m);
            return Mono.just(new io.rsocket.RSocket() {
                @Override
                public Mono<io.rsocket.Payload> requestResponse(io.rsocket.Payload p) {
                    p.release();
                    return Mono.just(ByteBufPayload.create("ok"));
                }
            });
        }).bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        toClose.add(channel::dispose);
        ByteBuf md = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(routing));
        routing.release();
        ask(sluiceClient(channel.address().getPort(), Credentials.bearer("t"),
            o -> o.metadataMimeType(COMPOSITE).setupPayload(Payload.create(Unpooled.EMPTY_BUFFER, md))));
        assertThat(mimes.get()).containsExactly("message/x.rsocket.authentication.v0",
            "message/x.rsocket.routing.v0");
    }

    @Test
    void sluiceClientRefusedByRsocketJavaHearsTheReason() {
        int port = startJava(seen -> seen.equals("bearer:right"));
        Connection c = sluiceClient(port, Credentials.bearer("wrong"), o -> o);
        StepVerifier.create(c.requestResponse(Payload.create("q")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedSetupException.class)
                .hasMessage("refused by rsocket-java"))
            .verify(TIMEOUT);
    }

    @Test
    void sluiceClientToSluiceServerBothWays() {
        int port = startSluice();
        assertThat(ask(sluiceClient(port, Credentials.simple("alice", "wonderland"), o -> o)))
            .isEqualTo("user:alice/q");
        Connection refused = sluiceClient(port, Credentials.bearer("bad"), o -> o);
        StepVerifier.create(refused.requestResponse(Payload.create("q")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedSetupException.class)
                .hasMessage("authentication failed"))
            .verify(TIMEOUT);
        // With the authentication MIME type itself as the metadata MIME type.
        assertThat(ask(sluiceClient(port, Credentials.bearer("good-token"),
            o -> o.metadataMimeType("message/x.rsocket.authentication.v0")))).isEqualTo("token-holder/q");
    }

    @Test
    void sluiceClientsSetupMetadataByteForByte() {
        // The example in docs/transports.md.
        AtomicReference<String> seen = new AtomicReference<>();
        sluice = RSocketServer.create((setup, socket) -> {
            seen.set(setup.metadataMimeType() + " " + ByteBufUtil.hexDump(setup.metadata()));
            return Mono.just(new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    return Mono.just(p);
                }
            });
        }).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        assertThat(ask(sluiceClient(sluice.port(), Credentials.simple("user", "pass"), o -> o))).isEqualTo("q");
        assertThat(seen).hasValue(COMPOSITE + " fc00000b" + "80" + "0004" + "75736572" + "70617373");
    }

    @Test
    void sluiceClientWithAnotherMetadataMimeTypeFailsBeforeConnecting() {
        StepVerifier.create(RSocketConnector.create().authentication(Credentials.bearer("t"))
                .metadataMimeType("application/json")
                .connect(TcpClientTransport.create("127.0.0.1", 1)))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                .hasMessage("authentication needs metadataMimeType message/x.rsocket.composite-metadata.v0 (or"
                    + " message/x.rsocket.authentication.v0), got 'application/json'"))
            .verify(TIMEOUT);
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
