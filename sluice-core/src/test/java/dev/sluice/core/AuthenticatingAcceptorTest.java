package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.frame.metadata.AuthMetadata;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.security.Principal;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The authenticator runs before the acceptor, which sees the identity; every refusal is REJECTED_SETUP with a
 * reason that names no credential; the acceptor's own errors pass untouched.
 */
class AuthenticatingAcceptorTest {

    private static final String COMPOSITE = WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.string();
    private static final RSocket HANDLER = new RSocket() { };

    private final AtomicReference<Principal> seen = new AtomicReference<>();
    private final AtomicInteger acceptorCalls = new AtomicInteger();
    private final SocketAcceptor acceptor = (setup, sendingSocket) -> {
        acceptorCalls.incrementAndGet();
        seen.set(setup.principal());
        return Mono.just(HANDLER);
    };
    private ConnectionSetupPayload setup;

    @AfterEach
    void release() {
        if (setup != null) {
            assertThat(setup.refCnt()).as("the acceptor chain leaves the setup's count alone").isEqualTo(1);
            setup.release();
        }
    }

    private ConnectionSetupPayload bearerSetup(String token) {
        ByteBuf auth = ByteBufAllocator.DEFAULT.buffer();
        ByteBuf md = ByteBufAllocator.DEFAULT.buffer();
        try {
            AuthMetadata.encodeBearer(auth, token);
            CompositeMetadata.addEntry(md, WellKnownMimeType.MESSAGE_RSOCKET_AUTHENTICATION, auth);
        } finally {
            auth.release();
        }
        setup = new ConnectionSetupPayload(Payload.create(ByteBufAllocator.DEFAULT.buffer(), md),
            Duration.ofSeconds(20), Duration.ofSeconds(90), COMPOSITE, "application/binary", false);
        return setup;
    }

    private static Principal named(String name) {
        return () -> name;
    }

    @Test
    void acceptedClientReachesTheAcceptorWithItsPrincipal() {
        AtomicReference<Credentials> given = new AtomicReference<>();
        SocketAcceptor a = new AuthenticatingAcceptor((credentials, s) -> {
            given.set(credentials);
            return Mono.just(named("alice"));
        }, acceptor);
        ConnectionSetupPayload s = bearerSetup("t-1");
        StepVerifier.create(a.accept(s, null)).expectNext(HANDLER).verifyComplete();
        assertThat(given.get()).isEqualTo(Credentials.bearer("t-1"));
        assertThat(seen.get().getName()).isEqualTo("alice");
        // The original setup is unchanged: the principal travels in a view of it.
        assertThat(s.principal()).isNull();
    }

    @Test
    void emptyAnswerIsAuthenticationFailed() {
        SocketAcceptor a = new AuthenticatingAcceptor((c, s) -> Mono.empty(), acceptor);
        StepVerifier.create(a.accept(bearerSetup("wrong-token"), null))
            .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(RejectedSetupException.class)
                .hasMessage("authentication failed"))
            .verify();
        assertThat(acceptorCalls).hasValue(0);
    }

    @Test
    void authenticatorErrorsNeverReachTheClientsEars() {
        // A verifier library that quotes its input in its message, failing asynchronously and synchronously.
        SocketAcceptor async = new AuthenticatingAcceptor((c, s) ->
            Mono.error(new IllegalStateException("bad token secret-123")), acceptor);
        StepVerifier.create(async.accept(bearerSetup("secret-123"), null))
            .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(RejectedSetupException.class)
                .hasMessage("authentication failed").hasNoCause())
            .verify();
        setup.release();
        SocketAcceptor thrown = new AuthenticatingAcceptor((c, s) -> {
            throw new IllegalArgumentException("bad token secret-123");
        }, acceptor);
        StepVerifier.create(thrown.accept(bearerSetup("secret-123"), null))
            .expectErrorMessage("authentication failed")
            .verify();
        setup.release();
        SocketAcceptor nullMono = new AuthenticatingAcceptor((c, s) -> null, acceptor);
        StepVerifier.create(nullMono.accept(bearerSetup("secret-123"), null))
            .expectErrorMessage("authentication failed")
            .verify();
        assertThat(acceptorCalls).hasValue(0);
    }

    @Test
    void authenticatorsOwnRefusalKeepsItsWords() {
        SocketAcceptor a = new AuthenticatingAcceptor((c, s) ->
            Mono.error(new RejectedSetupException("token expired")), acceptor);
        StepVerifier.create(a.accept(bearerSetup("old"), null))
            .expectErrorMessage("token expired")
            .verify();
    }

    @Test
    void missingCredentialsNeverCallTheAuthenticator() {
        AtomicInteger calls = new AtomicInteger();
        SocketAcceptor a = new AuthenticatingAcceptor((c, s) -> {
            calls.incrementAndGet();
            return Mono.just(named("x"));
        }, acceptor);
        setup = new ConnectionSetupPayload(Payload.create(ByteBufAllocator.DEFAULT.buffer()),
            Duration.ofSeconds(20), Duration.ofSeconds(90), COMPOSITE, "application/binary", false);
        StepVerifier.create(a.accept(setup, null))
            .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(RejectedSetupException.class)
                .hasMessage("missing credentials"))
            .verify();
        assertThat(calls).hasValue(0);
        assertThat(acceptorCalls).hasValue(0);
    }

    @Test
    void acceptorErrorsPassUnchanged() {
        IllegalStateException boom = new IllegalStateException("acceptor's own failure");
        SocketAcceptor a = new AuthenticatingAcceptor((c, s) -> Mono.just(named("bob")),
            (s, socket) -> Mono.error(boom));
        StepVerifier.create(a.accept(bearerSetup("t"), null))
            .expectErrorSatisfies(e -> assertThat(e).isSameAs(boom))
            .verify();
    }

    @Test
    void credentialsHideTheirSecrets() {
        assertThat(Credentials.simple("alice", "hunter2")).hasToString("Simple[username=alice, password=(hidden)]");
        assertThat(Credentials.bearer("eyJ.x.y")).hasToString("Bearer[token=(hidden)]");
        assertThat(Credentials.custom("x.mac", new byte[] {1, 2, 3}))
            .hasToString("Custom[authType=x.mac, payload=(3 bytes, hidden)]");
    }

    @Test
    void credentialsCheckTheirArguments() {
        assertThatThrownBy(() -> Credentials.simple("", "p"))
            .hasMessage("simple username must be 1..65535 UTF-8 bytes, got 0");
        assertThatThrownBy(() -> Credentials.simple(null, "p"))
            .hasMessage("simple credentials need a username and a password, got no username");
        assertThatThrownBy(() -> Credentials.simple("u", null))
            .hasMessage("simple credentials need a username and a password, got no password");
        assertThatThrownBy(() -> Credentials.bearer("")).hasMessage("bearer token must not be empty");
        assertThatThrownBy(() -> Credentials.custom("simple", null))
            .hasMessage("auth type 'simple' is well-known (id 0x00): send it by id");
        byte[] payload = {1};
        Credentials.Custom c = Credentials.custom("x", payload);
        payload[0] = 9;
        assertThat(c.payload()).containsExactly(1);
        assertThat(c.payloadLength()).isEqualTo(1);
        assertThat(c).isEqualTo(Credentials.custom("x", new byte[] {1})).hasSameHashCodeAs(
            Credentials.custom("x", new byte[] {1}));
    }
}
