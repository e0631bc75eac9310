package dev.sluice.transport.netty;

import dev.sluice.transport.netty.internal.TlsContexts;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link TcpServerTransport} serves TLS: a certificate chain and its private key, both PEM files, and optionally
 * a CA file whose certificates every client must present one issued by (mutual TLS). TLS 1.3 and 1.2 only.
 *
 * <pre>{@code
 * TcpServerTransport.create("0.0.0.0", 7001)
 *     .secure(TlsServer.ofPem(Path.of("server.pem"), Path.of("server.key"))
 *         .requireClientCertificates(Path.of("clients-ca.pem")));
 * }</pre>
 *
 * <p><b>Files.</b> The chain file holds {@code BEGIN CERTIFICATE} blocks, the server's own certificate first, then
 * the intermediates; the key file an unencrypted PKCS#8 key ({@code BEGIN PRIVATE KEY}; RSA, EC or EdDSA). A PKCS#1
 * key ({@code BEGIN RSA PRIVATE KEY}) is refused with the {@code openssl pkcs8} command that converts it. They are read
 * when the transport is {@linkplain TcpServerTransport#secure made secure}, which throws
 * {@link IllegalArgumentException} naming the file when one cannot be used.
 *
 * <p><b>Renewal.</b> While the server runs it checks every {@link #reloadInterval} (5 s) whether the files changed
 * (their modification time, size or inode, following symbolic links) and loads them again: connections accepted
 * afterwards use the new certificate, open ones are untouched. Files that cannot be loaded, such as a renewal caught
 * half written, leave the previous certificate in service and log one WARN line.
 *
 * <p><b>Provider.</b> OpenSSL (netty-tcnative's BoringSSL, a dependency of this module on Linux x86_64) when its
 * native library loads, the JDK's otherwise, or always with {@code -Dsluice.transport.noOpenSsl=true};
 * {@link #provider()} says which.
 *
 * <p>Immutable: every setter returns a new instance, so one value can be shared between servers.
 */
public final class TlsServer {

    private static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(5);
    private static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    private final Path certificateChain;
    private final Path privateKey;
    private final Path clientCa;
    private final Duration reloadInterval;
    private final Duration handshakeTimeout;
    private final SslProvider provider;

    private TlsServer(Path certificateChain, Path privateKey, Path clientCa, Duration reloadInterval,
        Duration handshakeTimeout, SslProvider provider) {
        this.certificateChain = certificateChain;
        this.privateKey = privateKey;
        this.clientCa = clientCa;
        this.reloadInterval = reloadInterval;
        this.handshakeTimeout = handshakeTimeout;
        this.provider = provider;
    }

    /** Serves the certificate chain of the PEM file {@code certificateChain} with the PKCS#8 key {@code privateKey}. */
    public static TlsServer ofPem(Path certificateChain, Path privateKey) {
        return new TlsServer(Objects.requireNonNull(certificateChain, "certificateChain"),
            Objects.requireNonNull(privateKey, "privateKey"), null, DEFAULT_RELOAD_INTERVAL,
            DEFAULT_HANDSHAKE_TIMEOUT, null);
    }

    /**
     * Mutual TLS: every client must present a certificate issued by one of the CAs in the PEM file {@code caFile};
     * a client that presents none, or one from another CA, fails its handshake. The file is reloaded with the others.
     */
    public TlsServer requireClientCertificates(Path caFile) {
        return new TlsServer(certificateChain, privateKey, Objects.requireNonNull(caFile, "caFile"), reloadInterval,
            handshakeTimeout, provider);
    }

    /**
     * How often the files are checked for changes (default 5 s); {@link Duration#ZERO} never checks, so the files
     * read at start are served until the server stops.
     */
    public TlsServer reloadInterval(Duration interval) {
        if (interval == null || interval.isNegative()) {
            throw new IllegalArgumentException("reloadInterval must be >= 0, got " + interval);
        }
        return new TlsServer(certificateChain, privateKey, clientCa, interval, handshakeTimeout, provider);
    }

    /**
     * How long a client has, from connecting, to send its first TLS record, and then again to finish the handshake
     * (default 10 s). A connection over it is closed before the RSocket engine ever sees it.
     */
    public TlsServer handshakeTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("handshakeTimeout must be > 0 and fit an int of ms, got " + timeout);
        }
        return new TlsServer(certificateChain, privateKey, clientCa, reloadInterval, timeout, provider);
    }

    /** For tests: runs on {@code provider} instead of the process's default. */
    TlsServer withProvider(SslProvider provider) {
        return new TlsServer(certificateChain, privateKey, clientCa, reloadInterval, handshakeTimeout, provider);
    }

    public Path certificateChain() {
        return certificateChain;
    }

    public Path privateKey() {
        return privateKey;
    }

    /** The CA file client certificates are verified against, or null when clients need none. */
    public Path clientCa() {
        return clientCa;
    }

    public Duration reloadInterval() {
        return reloadInterval;
    }

    public Duration handshakeTimeout() {
        return handshakeTimeout;
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
        return "TLS (certificate " + certificateChain + (clientCa == null ? "" : ", client certificates from "
            + clientCa + " required") + ")";
    }
}
