package dev.sluice.core;

import dev.sluice.core.exceptions.RejectedSetupException;
import java.security.Principal;
import reactor.core.publisher.Mono;

/**
 * Decides who a connecting client is from the credentials in its SETUP, before any handler exists. Set with
 * {@link RSocketServer#authenticate}; the server runs it once per connection, ahead of its {@link SocketAcceptor},
 * which then finds the identity in {@link ConnectionSetupPayload#principal()}.
 *
 * <pre>{@code
 * RSocketServer.create((setup, sendingSocket) -> Mono.just(new Handler(setup.principal())))
 *     .authenticate((credentials, setup) -> credentials instanceof Credentials.Bearer b
 *         ? tokens.verify(b.token())          // Mono<Principal>, empty when the token is not valid
 *         : Mono.empty())
 *     .bind(transport);
 * }</pre>
 *
 * <p>The server reads the credentials from SETUP metadata: the authentication entry of composite metadata, or the
 * whole metadata when the client declared {@code message/x.rsocket.authentication.v0} as its metadata MIME type.
 * Without credentials the client is refused (ERROR[REJECTED_SETUP] {@code missing credentials}) and this is not
 * called; malformed or unsupported ones are refused with the reason (lengths and type ids, never their bytes).
 *
 * <p>The answer:
 * <ul>
 *   <li>a {@link Principal}: accepted; the acceptor runs with it;</li>
 *   <li>empty: refused with ERROR[REJECTED_SETUP] {@code authentication failed};</li>
 *   <li>a {@link RejectedSetupException}: refused with its message, which goes to the client as written: never put
 *       a credential in it;</li>
 *   <li>any other error (or a throw): refused with {@code authentication failed}, and logged at WARN with the
 *       exception's class only, since its message might quote what it was given.</li>
 * </ul>
 * The answer may come from any thread; the connection waits for it (frames that arrive meanwhile are held, within
 * {@code maxInboundPayloadSize}). It is called on the connection's event loop: block there and every connection
 * of that loop waits, so call a remote service asynchronously.
 */
@FunctionalInterface
public interface SetupAuthenticator {

    /**
     * @param credentials what the client sent
     * @param setup       the rest of its SETUP; valid until the returned {@code Mono} completes
     * @return the client's identity, or empty to refuse
     */
    Mono<? extends Principal> authenticate(Credentials credentials, ConnectionSetupPayload setup);
}
