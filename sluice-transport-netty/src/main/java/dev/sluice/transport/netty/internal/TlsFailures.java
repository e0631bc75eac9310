package dev.sluice.transport.netty.internal;

import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Why a TLS handshake failed, in words a user can act on: {@code certificate expired at ...},
 * {@code hostname mismatch: certificate is for other.example, not 127.0.0.1},
 * {@code the server requires a client certificate}, instead of {@code PKIX path building failed: ...} or BoringSSL's
 * {@code error:10000416:SSL routines:OPENSSL_internal:SSLV3_ALERT_CERTIFICATE_UNKNOWN}. The same failure reads the
 * same on both providers. Stateless.
 *
 * <p>Where it comes from: this side's own verdict on the peer's certificate ({@link TlsVerifyException}, from
 * {@link ExplainingTrustManager}), the peer's verdict on ours (the alert it sent), or the connection itself (a
 * timeout, a plaintext peer, a close).
 */
public final class TlsFailures {

    /** Which side is reporting: it decides who "the peer" is and what an alert most likely means. */
    public enum Side {
        /** A server: the peer is a client. */
        SERVER,
        /** A client that presents no certificate: a certificate alert means the server wants one. */
        CLIENT,
        /** A client that presents a certificate: a certificate alert means the server refused it. */
        CLIENT_WITH_CERTIFICATE;

        String peer() {
            return this == SERVER ? "the client" : "the server";
        }
    }

    /** An alert name in the JDK's ("Received fatal alert: bad_certificate") or BoringSSL's (..._ALERT_BAD_...) form. */
    private static final Pattern ALERT = Pattern.compile(
        "(?:received fatal alert: ([a-z_]+))|(?:(?:sslv3|tlsv1|tlsv13)_alert_([a-z_]+))");

    /** The alerts a peer sends about the certificate this side presented. */
    private static final Set<String> CERTIFICATE_ALERTS = Set.of("bad_certificate", "certificate_unknown",
        "unknown_ca", "certificate_expired", "certificate_revoked", "unsupported_certificate", "access_denied");

    private TlsFailures() {
    }

    /**
     * The reason for {@code failure} (and its causes), one short lower-case phrase without class names.
     *
     * @param timeoutMillis the handshake timeout, quoted when it expired
     */
    public static String reason(Throwable failure, Side side, long timeoutMillis) {
        String peer = side.peer();
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof TlsVerifyException) {
                return t.getMessage();
            }
            if (t instanceof SslHandshakeTimeoutException) {
                return "timed out after " + timeoutMillis + " ms";
            }
            if (t instanceof NotSslRecordException) {
                return peer + " did not answer in TLS (a plaintext port?)";
            }
            if (t instanceof ClosedChannelException) {
                return peer + " closed the connection during the handshake";
            }
        }
        t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("empty client certificate chain") || m.contains("peer_did_not_return_a_certificate")
                || m.contains("peer did not return a certificate")) {
                return "peer did not send a client certificate";
            }
            if (m.contains("no appropriate protocol") || m.contains("unsupported_protocol")
                || m.contains("protocol is disabled")) {
                return "no TLS version in common (this side allows TLSv1.3 and TLSv1.2)";
            }
            String alert = alert(m);
            if (alert != null) {
                return alertReason(alert, side);
            }
            if (m.contains("connection reset")) {
                return "connection reset by " + peer.substring("the ".length()) + " during the handshake";
            }
            if (m.contains("terminated the handshake") || m.contains("closed") && m.contains("connection")) {
                return peer + " closed the connection during the handshake";
            }
        }
        SSLException ssl = deepest(failure);
        Throwable last = ssl != null ? ssl : failure;
        String m = last == null ? null : last.getMessage();
        return m == null ? "failed" : m;
    }

    /**
     * {@code cause} as a connection-level failure for the engine: a TLS exception becomes an {@link SSLException}
     * whose message is {@code TLS handshake failed: reason} ({@code TLS failed: reason} for a failure that is not about
     * the handshake, such as a damaged record) and whose cause is the original; anything else is returned as it is.
     * This is how a TLS 1.3 server's refusal of a client certificate, which arrives after the client finished its
     * handshake, reaches the requests of that connection.
     */
    public static Throwable readable(Throwable cause, Side side) {
        boolean handshake = false;
        boolean tls = false;
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            handshake |= t instanceof SSLHandshakeException
                || t.getMessage() != null && alert(t.getMessage().toLowerCase(Locale.ROOT)) != null;
            tls |= t instanceof SSLException || t instanceof NotSslRecordException;
        }
        if (!tls) {
            return cause;
        }
        return new SSLException((handshake ? "TLS handshake failed: " : "TLS failed: ") + reason(cause, side, 0),
            cause);
    }

    /** The alert name in a lower-case message, or null. */
    private static String alert(String message) {
        Matcher m = ALERT.matcher(message);
        return !m.find() ? null : m.group(1) != null ? m.group(1) : m.group(2);
    }

    private static String alertReason(String name, Side side) {
        String peer = side.peer();
        if (name.equals("certificate_required")) {
            return side == Side.CLIENT_WITH_CERTIFICATE
                // A client only offers a certificate issued by one of the CAs the server names.
                ? peer + " requires a client certificate from a CA it trusts, and ours is not"
                : peer + " requires a client certificate";
        }
        if (CERTIFICATE_ALERTS.contains(name)) {
            return side == Side.CLIENT ? peer + " requires a client certificate (alert " + name + ")"
                : peer + " rejected our certificate (alert " + name + ")";
        }
        if (name.equals("protocol_version")) {
            return "no TLS version in common with " + peer + " (alert protocol_version)";
        }
        if (name.equals("handshake_failure")) {
            return peer + " refused the handshake (alert handshake_failure)"
                + (side == Side.CLIENT ? ": does it require a client certificate?" : "");
        }
        return peer + " sent alert " + name;
    }

    private static SSLException deepest(Throwable failure) {
        SSLException found = null;
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof SSLException s) {
                found = s;
            }
        }
        return found;
    }
}
