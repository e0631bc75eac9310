package dev.sluice.transport.netty;

import dev.sluice.transport.netty.internal.TlsContexts;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How a {@link TcpClientTransport} connects over TLS: which CAs it trusts (a PEM file, or the JDK's default trust
 * store), whether it checks that the server's certificate is for the host it connects to (on by default), and the
 * certificate it presents when the server asks for one (mutual TLS). TLS 1.3 and 1.2 only.
 *
 * <pre>{@code
 * TcpClientTransport.create("rpc.example.com", 7001)
 *     .secure(TlsClient.trusting(Path.of("ca.pem"))
 *         .certificate(Path.of("client.pem"), Path.of("client.key")));
 * }</pre>
 *
 * <p><b>Hostname verification.</b> The server's certificate must name the host given to
 * {@link TcpClientTransport#create(String, int)} (or {@link #serverName}) among its subject alternative names: a DNS
 * name for a host name, an IP address for an address. A mismatch fails the connection with
 * {@code TLS handshake failed: hostname mismatch: certificate is for other.example, not 127.0.0.1}.
 *
 * <p><b>Files.</b> PEM, as {@link TlsServer} reads them; they are read once, when the transport is
 * {@linkplain TcpClientTransport#secure made secure}, which throws {@link IllegalArgumentException} naming the file
 * when one cannot be used. A renewed client certificate is used by transports made after the renewal.
 *
 * <p>Immutable: every setter returns a new instance.
 */
public final class TlsClient {

    private final Path ca;
    private final Path certificateChain;
    private final Path privateKey;
    private final String serverName;
    private final boolean verifyHostname;
    private final SslProvider provider;

    private TlsClient(Path ca, Path certificateChain, Path privateKey, String serverName, boolean verifyHostname,
        SslProvider provider) {
        this.ca = ca;
        this.certificateChain = certificateChain;
        this.privateKey = privateKey;
        this.serverName = serverName;
        this.verifyHostname = verifyHostname;
        this.provider = provider;
    }

    /** Trusts the CAs of the PEM file {@code caFile}, and only those. */
    public static TlsClient trusting(Path caFile) {
        return new TlsClient(Objects.requireNonNull(caFile, "caFile"), null, null, null, true, null);
    }

    /**
     * Trusts the JDK's default trust store ({@code lib/security/cacerts} of the Java runtime, or the store that
     * {@code -Djavax.net.ssl.trustStore} names): public CAs, for servers with publicly issued certificates.
     */
    public static TlsClient trustingJdkDefaults() {
        return new TlsClient(null, null, null, null, true, null);
    }

    /**
     * Presents the certificate chain of the PEM file {@code certificateChain} with the PKCS#8 key of
     * {@code privateKey} when the server asks for a client certificate.
     */
    public TlsClient certificate(Path certificateChain, Path privateKey) {
        return new TlsClient(ca, Objects.requireNonNull(certificateChain, "certificateChain"),
            Objects.requireNonNull(privateKey, "privateKey"), serverName, verifyHostname, provider);
    }

    /**
     * The name the server's certificate must carry, and that is sent as SNI, instead of the host connected to: for
     * connecting by address to a server whose certificate names it by DNS name.
     */
    public TlsClient serverName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("serverName must not be empty, got '" + name + "'");
        }
        return new TlsClient(ca, certificateChain, privateKey, name, verifyHostname, provider);
    }

    /**
     * Whether the server's certificate must be for the host connected to (default {@code true}). Turning it off
     * accepts any certificate the trusted CAs issued, for any name: only for a private CA that issues to nothing but
     * these servers.
     */
    public TlsClient verifyHostname(boolean verify) {
        return new TlsClient(ca, certificateChain, privateKey, serverName, verify, provider);
    }

    /** For tests: runs on {@code provider} instead of the process's default. */
    TlsClient withProvider(SslProvider provider) {
        return new TlsClient(ca, certificateChain, privateKey, serverName, verifyHostname, provider);
    }

    /** The trusted CA file, or null for the JDK's default trust store. */
    public Path ca() {
        return ca;
    }

    /** The client certificate chain file, or null when none is presented. */
    public Path certificateChain() {
        return certificateChain;
    }

    /** The client private key file, or null when no certificate is presented. */
    public Path privateKey() {
        return privateKey;
    }

    /** The name checked against the server's certificate, or null for the host connected to. */
    public String serverName() {
        return serverName;
    }

    public boolean verifyHostname() {
        return verifyHostname;
    }

    /** The provider TLS runs on in this process: {@code OpenSSL (BoringSSL)} or {@code JDK}. */
    public static String provider() {
        return TlsContexts.describe(TlsContexts.defaultProvider());
    }

    /** The provider this configuration runs on. */
    SslProvider sslProvider() {
        return provider != null ? provider : TlsContexts.defaultProvider();
    }

    @Override
    public String toString() {
        return "TLS (trusting " + (ca == null ? "the JDK's default CAs" : ca)
            + (certificateChain == null ? "" : ", client certificate " + certificateChain)
            + (verifyHostname ? "" : ", hostname not verified") + ")";
    }
}
