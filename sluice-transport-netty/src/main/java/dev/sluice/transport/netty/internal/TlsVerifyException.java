package dev.sluice.transport.netty.internal;

import java.security.cert.CertificateException;

/**
 * A peer certificate that {@link ExplainingTrustManager} refused, with a message that says why in a user's words
 * ({@code certificate expired at 2024-01-01T00:00:00Z (CN=localhost)}); the trust manager's own failure is the cause.
 * {@link TlsFailures} finds it in a failed handshake's causes and reports its message as the reason.
 */
public final class TlsVerifyException extends CertificateException {

    private static final long serialVersionUID = 1L;

    TlsVerifyException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
