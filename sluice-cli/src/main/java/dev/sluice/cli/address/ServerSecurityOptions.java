package dev.sluice.cli.address;

import dev.sluice.core.Credentials;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.transport.ServerTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import dev.sluice.transport.netty.TlsServer;
import dev.sluice.transport.netty.UnixServerTransport;
import dev.sluice.transport.netty.WebsocketServerTransport;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.Principal;
import picocli.CommandLine.Option;
import reactor.core.publisher.Mono;

/**
 * How a serving command ({@code server}, {@code echo-server}, {@code file-server}, the listening side of
 * {@code proxy}) serves its {@code --address}: TLS ({@code --tls-cert}, {@code --tls-key}, {@code --tls-client-ca})
 * and bearer tokens ({@code --auth-token-file}), and a Unix socket file's permissions ({@code --socket-permissions}).
 * A picocli mixin, so that every server says and checks the same.
 *
 * <p>Inconsistent combinations are usage errors ({@link IllegalArgumentException}, which the commands turn into exit
 * code 2): a {@code tls://} or {@code wss://} address without {@code --tls-cert} and {@code --tls-key}, either of those
 * without the other, any {@code --tls-*} option with a plaintext address. Tokens on a plaintext address that other
 * machines can reach are allowed, with a warning ({@link #warning}): a TLS-terminating load balancer may stand in
 * front.
 */
public final class ServerSecurityOptions {

    /** What a client with other credentials than a bearer token is told. */
    static final String BEARER_ONLY = "this server accepts bearer tokens only";

    @Option(names = "--tls-cert", paramLabel = "FILE",
        description = "serve TLS with this certificate chain (PEM, the server's own certificate first); needs a"
            + " tls:// or wss:// address and --tls-key. Renewed files are picked up within 5 s")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
        description = "the private key of --tls-cert (PEM, unencrypted PKCS#8)")
    Path tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "FILE",
        description = "mutual TLS: every client must present a certificate issued by a CA of this PEM file")
    Path tlsClientCa;

    @Option(names = "--auth-token-file", paramLabel = "FILE",
        description = "accept only clients whose SETUP carries one of this file's bearer tokens (one per line;"
            + " blank lines and lines starting with # skipped); the others get REJECTED_SETUP")
    Path authTokenFile;

    @Option(names = "--socket-permissions", paramLabel = "PERMS",
        description = "unix: addresses: the socket file's permissions in ls -l form, e.g. rw-rw---- (owner and group"
            + " may connect: connecting needs write permission); default: what the umask leaves")
    String socketPermissions;

    private TokenFile tokens;

    /**
     * Checks the options against {@code address} (given as {@code option}), reads the token file and the TLS files,
     * and returns the transport that serves it.
     *
     * @param backlog the accept backlog, or null for the kernel's
     * @throws IllegalArgumentException for a usage error: an inconsistent combination, a file that cannot be used,
     *                                  a wrong backlog ({@code backlog must be > 0, got 0})
     */
    public ServerTransport transport(String option, Address address, Integer backlog) {
        check(option, address);
        if (authTokenFile != null) {
            tokens = TokenFile.read("--auth-token-file", authTokenFile);
        }
        TlsServer tls = null;
        if (tlsCert != null) {
            tls = TlsServer.ofPem(tlsCert, tlsKey);
            if (tlsClientCa != null) {
                tls = tls.requireClientCertificates(tlsClientCa);
            }
        }
        return switch (address.scheme()) {
            case TCP, TLS -> {
                TcpServerTransport t = TcpServerTransport.create(new InetSocketAddress(address.host(),
                    address.port()));
                if (backlog != null) {
                    t.backlog(backlog);
                }
                yield tls == null ? t : t.secure(tls);
            }
            case WS, WSS -> {
                WebsocketServerTransport t = WebsocketServerTransport.create(new InetSocketAddress(address.host(),
                    address.port())).path(address.path());
                if (backlog != null) {
                    t.backlog(backlog);
                }
                yield tls == null ? t : t.secure(tls);
            }
            case UNIX -> {
                UnixServerTransport t = UnixServerTransport.create(address.socketFile());
                if (backlog != null) {
                    t.backlog(backlog);
                }
                if (socketPermissions != null) {
                    try {
                        t.permissions(socketPermissions);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--socket-permissions: " + e.getMessage());
                    }
                }
                yield t;
            }
        };
    }

    private void check(String option, Address address) {
        if (socketPermissions != null && address.scheme() != Scheme.UNIX) {
            throw new IllegalArgumentException("--socket-permissions needs a unix: " + option + ", got '" + address
                + "'");
        }
        boolean secure = address.scheme().secure();
        if (secure && (tlsCert == null || tlsKey == null)) {
            throw new IllegalArgumentException(option + " " + address + " serves TLS: it needs --tls-cert FILE and"
                + " --tls-key FILE" + (tlsCert == null && tlsKey == null ? "" : tlsCert == null
                    ? " (--tls-cert is missing)" : " (--tls-key is missing)"));
        }
        if (!secure) {
            String given = tlsCert != null ? "--tls-cert" : tlsKey != null ? "--tls-key" : tlsClientCa != null
                ? "--tls-client-ca" : null;
            if (given != null) {
                throw new IllegalArgumentException(given + " needs a tls:// or wss:// " + option + ", got '"
                    + address + "' (plaintext)");
            }
        }
    }

    /**
     * {@code server} refusing every client without one of the file's bearer tokens; unchanged without
     * {@code --auth-token-file}. Call after {@link #transport}.
     */
    public RSocketServer apply(RSocketServer server) {
        TokenFile accepted = tokens;
        if (accepted == null) {
            return server;
        }
        return server.authenticate((credentials, setup) -> {
            if (!(credentials instanceof Credentials.Bearer bearer)) {
                return Mono.error(new RejectedSetupException(BEARER_ONLY));
            }
            int line = accepted.lineOf(bearer.token());
            // Empty: the client gets REJECTED_SETUP "authentication failed", which says nothing of the token.
            return line < 0 ? Mono.empty() : Mono.just(new TokenPrincipal(line));
        });
    }

    /** Whether clients must present a certificate. */
    public boolean mutualTls() {
        return tlsClientCa != null;
    }

    /**
     * What the startup line says after the address: {@code (TLS on OpenSSL (BoringSSL), bearer tokens: 2 from
     * tokens.txt)}, {@code (mutual TLS on JDK)}, {@code (plaintext)}. Call after {@link #transport}.
     */
    public String describe(Address bound) {
        String security = !bound.scheme().secure() ? "plaintext"
            : (mutualTls() ? "mutual TLS" : "TLS") + " on " + TlsServer.provider();
        return "(" + security + (tokens == null ? "" : ", bearer tokens: " + tokens.count() + " from "
            + tokens.file()) + ")";
    }

    /**
     * A warning for the log when tokens are asked for over a plaintext address that other machines can reach (they
     * cross the network in cleartext unless TLS is terminated in front); null otherwise.
     */
    public String warning(Address address) {
        if (authTokenFile == null || address.scheme().secure() || address.local()) {
            return null;
        }
        return "--auth-token-file on plaintext " + address + ": clients' bearer tokens cross the network in"
            + " cleartext; serve tls:// (or terminate TLS in front of this server)";
    }

    /** A client known by the line of its token in the file: a name that gives nothing of the token away. */
    record TokenPrincipal(int line) implements Principal {
        @Override
        public String getName() {
            return "token on line " + line;
        }
    }
}
