package dev.sluice.cli.address;

import dev.sluice.core.Credentials;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TlsClient;
import dev.sluice.transport.netty.UnixClientTransport;
import dev.sluice.transport.netty.WebsocketClientTransport;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How a client command ({@code load}, {@code upload}, {@code download}) reaches its {@code --target}: which CAs it
 * trusts and which certificate it presents over TLS ({@code --tls-ca}, {@code --tls-cert}, {@code --tls-key},
 * {@code --tls-server-name}), and the bearer token it sends in SETUP ({@code --auth-token-file}). A picocli mixin,
 * so that every client says and checks the same.
 *
 * <p>Usage errors ({@link IllegalArgumentException}; exit code 2): any {@code --tls-*} option with a plaintext
 * target, {@code --tls-cert} without {@code --tls-key} or the reverse, a token file that cannot be read, is empty or
 * holds more than one token. A {@code tls://} target without {@code --tls-ca} trusts the JDK's CAs (publicly issued
 * certificates). A token sent over plaintext to another machine is allowed with a warning ({@link #warning}).
 */
public final class ClientSecurityOptions {

    @Option(names = "--tls-ca", paramLabel = "FILE",
        description = "trust the CAs of this PEM file for a tls:// or wss:// target (default: the JDK's trusted"
            + " CAs)")
    Path tlsCa;

    @Option(names = "--tls-cert", paramLabel = "FILE",
        description = "mutual TLS: present this certificate chain (PEM) when the server asks; needs --tls-key")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
        description = "the private key of --tls-cert (PEM, unencrypted PKCS#8)")
    Path tlsKey;

    @Option(names = "--tls-server-name", paramLabel = "NAME",
        description = "the name the server's certificate must carry (also sent as SNI), instead of the target's"
            + " host: for connecting by IP address to a server whose certificate names it by DNS name")
    String tlsServerName;

    @Option(names = "--auth-token-file", paramLabel = "FILE",
        description = "send the bearer token of this file (its one line) in SETUP")
    Path authTokenFile;

    private String token;

    /**
     * Checks the options against {@code target} (given as {@code option}), reads the files, and returns the
     * transport that connects to it.
     *
     * @throws IllegalArgumentException for a usage error: an inconsistent combination, a file that cannot be used
     */
    public ClientTransport transport(String option, Address target, Duration connectTimeout) {
        if (!target.scheme().secure()) {
            String given = tlsCa != null ? "--tls-ca" : tlsCert != null ? "--tls-cert" : tlsKey != null ? "--tls-key"
                : tlsServerName != null ? "--tls-server-name" : null;
            if (given != null) {
                throw new IllegalArgumentException(given + " needs a tls:// or wss:// " + option + ", got '" + target
                    + "' (plaintext)");
            }
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException(tlsCert == null ? "--tls-key needs --tls-cert"
                : "--tls-cert needs --tls-key");
        }
        if (authTokenFile != null) {
            token = TokenFile.read("--auth-token-file", authTokenFile).single("--auth-token-file");
        }
        return switch (target.scheme()) {
            case TCP -> TcpClientTransport.create(target.host(), target.port()).connectTimeout(connectTimeout);
            case TLS -> TcpClientTransport.create(target.host(), target.port()).connectTimeout(connectTimeout)
                .secure(tls());
            case WS -> WebsocketClientTransport.create(target.host(), target.port()).path(target.path())
                .connectTimeout(connectTimeout);
            case WSS -> WebsocketClientTransport.create(target.host(), target.port()).path(target.path())
                .connectTimeout(connectTimeout).secure(tls());
            case UNIX -> UnixClientTransport.create(target.socketFile()).connectTimeout(connectTimeout);
        };
    }

    private TlsClient tls() {
        TlsClient tls = tlsCa == null ? TlsClient.trustingJdkDefaults() : TlsClient.trusting(tlsCa);
        if (tlsCert != null) {
            tls = tls.certificate(tlsCert, tlsKey);
        }
        if (tlsServerName != null) {
            tls = tls.serverName(tlsServerName);
        }
        return tls;
    }

    /** {@code connector} sending the token of {@code --auth-token-file}, if given. Call after {@link #transport}. */
    public RSocketConnector apply(RSocketConnector connector) {
        return token == null ? connector : connector.authentication(Credentials.bearer(token));
    }

    /**
     * A warning to print when the token would go in cleartext to another machine; null otherwise. The token is not
     * in it.
     */
    public String warning(Address target) {
        if (authTokenFile == null || target.scheme().secure() || target.local()) {
            return null;
        }
        return "warning: --auth-token-file over plaintext " + target + " sends the token in cleartext; use tls://";
    }
}
