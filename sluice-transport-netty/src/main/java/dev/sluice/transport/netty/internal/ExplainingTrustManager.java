package dev.sluice.transport.netty.internal;

import java.net.Socket;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager that verifies exactly as the one it wraps (the JDK's PKIX trust manager over the configured CAs, with
 * endpoint identification when the engine asks for it) and, when that refuses a peer's chain, says why in one line:
 * expired, not yet valid, issued by a CA that is not trusted, or issued for another host. Both TLS providers call it,
 * so the reasons read the same on OpenSSL and on the JDK.
 *
 * <p>How a hostname mismatch is told apart without checking names ourselves: the chain is verified again without the
 * engine, which skips endpoint identification; if that passes, the name was the only problem.
 *
 * <p>Thread-safe: stateless apart from the delegate, which is.
 */
public final class ExplainingTrustManager extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager delegate;
    private final String subject;

    /**
     * @param subject what the verified certificates are called in messages: {@code "certificate"} on a client,
     *                {@code "client certificate"} on a server
     */
    public ExplainingTrustManager(X509ExtendedTrustManager delegate, String subject) {
        this.delegate = delegate;
        this.subject = subject;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw explain(chain, e, () -> delegate.checkServerTrusted(chain, authType),
                engine == null ? null : engine.getPeerHost());
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
        try {
            delegate.checkClientTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw explain(chain, e, null, null);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw explain(chain, e, () -> delegate.checkServerTrusted(chain, authType), null);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
        try {
            delegate.checkClientTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw explain(chain, e, null, null);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw explain(chain, e, null, null);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        try {
            delegate.checkClientTrusted(chain, authType);
        } catch (CertificateException e) {
            throw explain(chain, e, null, null);
        }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }

    /** A check of the chain alone, without the engine's endpoint identification. */
    private interface ChainCheck {
        void run() throws CertificateException;
    }

    private TlsVerifyException explain(X509Certificate[] chain, CertificateException failure, ChainCheck withoutHost,
        String host) {
        if (chain == null || chain.length == 0) {
            return new TlsVerifyException("no " + subject + " received", failure);
        }
        // The order matters: a chain from an unknown CA is reported as that even when it has also expired, since
        // trusting the CA is the first thing to fix, and the path builder fails before looking at dates.
        X509Certificate leaf = chain[0];
        if (has(failure, CertPathBuilderException.class)) {
            X509Certificate top = chain[chain.length - 1];
            return new TlsVerifyException(subject + " not trusted: issuer " + top.getIssuerX500Principal().getName()
                + " is not a trusted CA", failure);
        }
        for (X509Certificate c : chain) {
            try {
                c.checkValidity();
            } catch (CertificateExpiredException e) {
                return new TlsVerifyException(subject + " expired at " + c.getNotAfter().toInstant() + " ("
                    + c.getSubjectX500Principal().getName() + ")", failure);
            } catch (CertificateNotYetValidException e) {
                return new TlsVerifyException(subject + " not valid before " + c.getNotBefore().toInstant() + " ("
                    + c.getSubjectX500Principal().getName() + ")", failure);
            }
        }
        if (withoutHost != null && host != null) {
            try {
                withoutHost.run();
                return new TlsVerifyException("hostname mismatch: " + subject + " is for "
                    + String.join(", ", names(leaf)) + ", not " + host, failure);
            } catch (CertificateException alsoWithoutHost) {
                // not (only) the name: reported below
            }
        }
        CertPathValidatorException invalid = find(failure, CertPathValidatorException.class);
        String why = invalid != null && invalid.getReason() != CertPathValidatorException.BasicReason.UNSPECIFIED
            ? invalid.getReason().toString().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
            : String.valueOf(failure.getMessage());
        return new TlsVerifyException(subject + " not trusted: " + why, failure);
    }

    /** The DNS names and IP addresses the certificate is for, else its subject. */
    static List<String> names(X509Certificate cert) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    if (type == 2 || type == 7) {
                        names.add(String.valueOf(san.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // fall back to the subject
        }
        if (names.isEmpty()) {
            names.add(cert.getSubjectX500Principal().getName());
        }
        return names;
    }

    private static boolean has(Throwable t, Class<? extends Throwable> type) {
        return find(t, type) != null;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
