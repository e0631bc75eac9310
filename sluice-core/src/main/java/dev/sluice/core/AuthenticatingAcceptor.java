package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.internal.auth.SetupCredentials;
import java.security.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A {@link SocketAcceptor} that runs a {@link SetupAuthenticator} first and the application's acceptor only for an
 * authenticated client, handing it the identity through {@link ConnectionSetupPayload#principal()}. Every refusal
 * is a {@link RejectedSetupException} whose message names no credential (see {@link SetupAuthenticator}).
 * Stateless beyond its two parts; thread-safe if they are.
 */
final class AuthenticatingAcceptor implements SocketAcceptor {

    /** The reason for credentials the authenticator did not accept. */
    static final String FAILED = "authentication failed";

    private static final Logger log = LoggerFactory.getLogger(AuthenticatingAcceptor.class);

    private final SetupAuthenticator authenticator;
    private final SocketAcceptor acceptor;

    AuthenticatingAcceptor(SetupAuthenticator authenticator, SocketAcceptor acceptor) {
        this.authenticator = authenticator;
        this.acceptor = acceptor;
    }

    @Override
    public Mono<RSocket> accept(ConnectionSetupPayload setup, Connection sendingSocket) {
        Credentials credentials;
        try {
            credentials = SetupCredentials.read(setup.metadataMimeType(), setup.metadata(), setup.hasMetadata());
        } catch (RejectedSetupException refused) {
            log.debug("SETUP refused: {}", refused.getMessage());
            return Mono.error(refused);
        }
        Mono<? extends Principal> verdict;
        try {
            verdict = authenticator.authenticate(credentials, setup);
        } catch (Throwable t) {
            return Mono.error(refusal(t, credentials));
        }
        if (verdict == null) {
            log.warn("SETUP refused: the authenticator returned null instead of a Mono ({} credentials)",
                kind(credentials));
            return Mono.error(new RejectedSetupException(FAILED));
        }
        return verdict
            .onErrorMap(t -> refusal(t, credentials))
            .switchIfEmpty(Mono.error(() -> {
                log.debug("SETUP refused: {} credentials not accepted", kind(credentials));
                return new RejectedSetupException(FAILED);
            }))
            .flatMap(principal -> acceptor.accept(setup.withPrincipal(principal), sendingSocket));
    }

    /** What the client is told when the authenticator failed with {@code t}. */
    private static RejectedSetupException refusal(Throwable t, Credentials credentials) {
        if (t instanceof RejectedSetupException chosen) {
            log.debug("SETUP refused by the authenticator: {}", chosen.getMessage());
            return chosen;
        }
        // The message stays out of the log: an exception from a token or password check may quote its input.
        log.warn("SETUP refused: the authenticator failed on {} credentials with {}", kind(credentials),
            t.getClass().getName());
        return new RejectedSetupException(FAILED);
    }

    /** The credentials' kind for a log line; a custom type's name is the client's text, so it is not logged. */
    private static String kind(Credentials credentials) {
        return credentials instanceof Credentials.Custom ? "custom" : credentials.authType();
    }
}
