package dev.sluice.transport.netty.internal;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds Netty {@link SslContext}s from PEM files: TLS 1.3 and 1.2 only, the provider's default cipher suites, peer
 * certificates verified through an {@link ExplainingTrustManager}. OpenSSL (netty-tcnative's statically linked
 * BoringSSL) when its native library loads, unless {@code -D}{@value #NO_OPENSSL_PROPERTY}{@code =true}; the JDK's
 * provider otherwise. Stateless; the files are read at each call.
 */
public final class TlsContexts {

    /** The system property that turns OpenSSL off, so that TLS runs on the JDK's provider. */
    public static final String NO_OPENSSL_PROPERTY = "sluice.transport.noOpenSsl";

    /** The protocol versions offered and accepted, newest first. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private TlsContexts() {
    }

    /** The provider TLS uses unless told otherwise; decided once per process, at first use. */
    public static SslProvider defaultProvider() {
        return DefaultProvider.PROVIDER;
    }

    /** The provider's name for logs: {@code OpenSSL (BoringSSL)} or {@code JDK}. */
    public static String describe(SslProvider provider) {
        return provider == SslProvider.JDK ? "JDK" : "OpenSSL (" + OpenSsl.versionString() + ")";
    }

    /** A server's context and the certificate it presents. */
    public record ServerContext(SslContext context, X509Certificate leaf) {
    }

    /**
     * A server context presenting {@code chain} with {@code key}; when {@code clientCa} is not null, clients must
     * present a certificate issued by one of its CAs.
     *
     * @throws IllegalArgumentException if a file cannot be read or used, or the key does not belong to the chain
     */
    public static ServerContext server(Path chain, Path key, Path clientCa, SslProvider provider) {
        X509Certificate[] certs = PemFiles.certificates(chain, "TLS certificate chain");
        PrivateKey privateKey = PemFiles.privateKey(key, "TLS private key");
        PemFiles.checkKeyMatches(privateKey, certs[0], key, chain);
        SslContextBuilder b = SslContextBuilder.forServer(privateKey, certs)
            .sslProvider(provider)
            .protocols(PROTOCOLS);
        if (clientCa != null) {
            b.trustManager(new ExplainingTrustManager(trustManager(clientCa), "client certificate"))
                .clientAuth(ClientAuth.REQUIRE);
        }
        return new ServerContext(build(b, chain), certs[0]);
    }

    /**
     * A client context trusting the CAs of {@code ca} (the JDK's default trust store when null), checking that the
     * server's certificate is for the host connected to when {@code verifyHostname}, and presenting {@code chain} with
     * {@code key} when asked for a client certificate (neither, when {@code chain} is null).
     *
     * @throws IllegalArgumentException if a file cannot be read or used, or the key does not belong to the chain
     */
    public static SslContext client(Path ca, Path chain, Path key, boolean verifyHostname, SslProvider provider) {
        SslContextBuilder b = SslContextBuilder.forClient()
            .sslProvider(provider)
            .protocols(PROTOCOLS)
            .trustManager(new ExplainingTrustManager(trustManager(ca), "certificate"))
            // "HTTPS" is RFC 2818's check: the DNS name or IP address connected to must be one of the certificate's
            // subject alternative names. Netty 4.1 leaves it off unless asked.
            .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
        if (chain != null) {
            X509Certificate[] certs = PemFiles.certificates(chain, "TLS client certificate chain");
            PrivateKey privateKey = PemFiles.privateKey(key, "TLS client private key");
            PemFiles.checkKeyMatches(privateKey, certs[0], key, chain);
            b.keyManager(privateKey, certs);
        }
        return build(b, chain != null ? chain : ca);
    }

    /** The JDK's PKIX trust manager over the CAs of {@code caFile}, or over its default trust store when null. */
    static X509ExtendedTrustManager trustManager(Path caFile) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (caFile == null) {
                tmf.init((KeyStore) null);
            } else {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                int i = 0;
                for (X509Certificate ca : PemFiles.certificates(caFile, "TLS CA file")) {
                    store.setCertificateEntry("ca-" + i++, ca);
                }
                tmf.init(store);
            }
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509ExtendedTrustManager x) {
                    return x;
                }
            }
            throw new IllegalStateException("the JDK's " + tmf.getAlgorithm() + " trust manager factory made no X.509"
                + " trust manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot use TLS CA file " + caFile + ": " + e.getMessage(), e);
        }
    }

    private static SslContext build(SslContextBuilder b, Path file) {
        try {
            return b.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot set up TLS with " + file + ": " + e.getMessage(), e);
        }
    }

    /** Loaded lazily, so that merely touching this class loads no native library. */
    private static final class DefaultProvider {
        static final SslProvider PROVIDER = !Boolean.getBoolean(NO_OPENSSL_PROPERTY) && OpenSsl.isAvailable()
            ? SslProvider.OPENSSL : SslProvider.JDK;
    }
}
