package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.transport.netty.internal.TlsFailures.Side;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The words for failures as each provider raises them: the JDK's alert messages and BoringSSL's error strings read
 * the same. The end-to-end cases are in {@code TlsFailureTest}; these rows pin the mapping itself.
 */
class TlsFailuresTest {

    @ParameterizedTest(name = "{0} ({1})")
    @CsvSource(delimiter = '|', value = {
        // JDK client, TLS 1.3 server refusing an empty certificate
        "Received fatal alert: certificate_required | CLIENT | the server requires a client certificate",
        // BoringSSL client, the same
        "error:1000045c:SSL routines:OPENSSL_internal:TLSV1_ALERT_CERTIFICATE_REQUIRED | CLIENT"
            + " | the server requires a client certificate",
        "Received fatal alert: certificate_required | CLIENT_WITH_CERTIFICATE"
            + " | the server requires a client certificate from a CA it trusts, and ours is not",
        "Received fatal alert: bad_certificate | CLIENT | the server requires a client certificate (alert"
            + " bad_certificate)",
        "error:10000412:SSL routines:OPENSSL_internal:SSLV3_ALERT_BAD_CERTIFICATE | CLIENT_WITH_CERTIFICATE"
            + " | the server rejected our certificate (alert bad_certificate)",
        "Received fatal alert: certificate_unknown | SERVER | the client rejected our certificate (alert"
            + " certificate_unknown)",
        // Servers: the client sent no certificate
        "Empty client certificate chain | SERVER | peer did not send a client certificate",
        "error:100000c0:SSL routines:OPENSSL_internal:PEER_DID_NOT_RETURN_A_CERTIFICATE | SERVER"
            + " | peer did not send a client certificate",
        "Received fatal alert: protocol_version | CLIENT | no TLS version in common with the server (alert"
            + " protocol_version)",
        "No appropriate protocol (protocol is disabled or cipher suites are inappropriate) | SERVER"
            + " | no TLS version in common (this side allows TLSv1.3 and TLSv1.2)",
        "Received fatal alert: handshake_failure | CLIENT | the server refused the handshake (alert"
            + " handshake_failure): does it require a client certificate?",
    })
    void alertsAndErrorStrings(String message, Side side, String reason) {
        assertThat(TlsFailures.reason(new SSLHandshakeException(message), side, 10_000)).isEqualTo(reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "timeout | CLIENT | timed out after 10000 ms",
        "plaintext | CLIENT | the server did not answer in TLS (a plaintext port?)",
        "closed | SERVER | the client closed the connection during the handshake",
    })
    void connectionLevelFailures(String kind, Side side, String reason) {
        Throwable failure = switch (kind) {
            case "timeout" -> new SslHandshakeTimeoutException("handshake timed out after 10000ms");
            case "plaintext" -> new NotSslRecordException("not an SSL/TLS record: 00000c");
            default -> new ClosedChannelException();
        };
        assertThat(TlsFailures.reason(failure, side, 10_000)).isEqualTo(reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "handshake | TLS handshake failed: the server requires a client certificate",
        "record | TLS failed: bad record MAC",
    })
    void aConnectionLostToTlsSaysSo(String kind, String message) {
        Throwable cause = kind.equals("handshake")
            ? new SSLException("Received fatal alert: certificate_required")
            : new SSLException("bad record MAC");
        assertThat(TlsFailures.readable(new io.netty.handler.codec.DecoderException(cause), Side.CLIENT))
            .isInstanceOf(SSLException.class).hasMessage(message).hasCause(
                new io.netty.handler.codec.DecoderException(cause));
    }
}
