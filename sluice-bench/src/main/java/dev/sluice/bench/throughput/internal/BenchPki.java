package dev.sluice.bench.throughput.internal;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The certificates of a run's TLS cells, made on the spot with BouncyCastle: a CA and a server certificate it issues
 * for {@code 127.0.0.1} and {@code localhost}, both EC P-256 signed with SHA-256 (what {@code openssl req -newkey ec}
 * makes with the curve the TLS section of the benchmarks used), valid from an hour ago for two days. Written as the
 * files every TLS main reads from {@code --tls DIR}: {@code ca.pem} (the CA, which clients trust),
 * {@code server.pem} (the server's certificate, then the CA's) and {@code server.key} (its unencrypted PKCS#8 key).
 * The CA's key is not written: nothing else is ever issued with it. Stateless.
 */
public final class BenchPki {

    /** The files {@link #write} creates in its directory. */
    public static final String CA = "ca.pem";
    public static final String SERVER_CHAIN = "server.pem";
    public static final String SERVER_KEY = "server.key";

    private BenchPki() {
    }

    /**
     * Writes {@value #CA}, {@value #SERVER_CHAIN} and {@value #SERVER_KEY} into {@code dir}, which must exist.
     *
     * @throws IOException if a file cannot be written
     */
    public static void write(Path dir) throws IOException {
        Instant now = Instant.now();
        Date from = Date.from(now.minus(Duration.ofHours(1)));
        Date to = Date.from(now.plus(Duration.ofDays(2)));
        KeyPair caKeys = keyPair();
        X500Name caName = new X500Name("CN=sluice bench CA");
        X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serial(), from, to, caName,
            caKeys.getPublic());
        KeyPair serverKeys = keyPair();
        X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caName, serial(), from, to,
            new X500Name("CN=localhost"), serverKeys.getPublic());
        ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        server.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        server.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        server.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        // The clients connect to 127.0.0.1 and check that the certificate names it, as a real client would.
        server.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        X509Certificate caCert = sign(ca, caKeys);
        X509Certificate serverCert = sign(server, caKeys);
        Files.writeString(dir.resolve(CA), pem("CERTIFICATE", encoded(caCert)), StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve(SERVER_CHAIN), pem("CERTIFICATE", encoded(serverCert))
            + pem("CERTIFICATE", encoded(caCert)), StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve(SERVER_KEY), pem("PRIVATE KEY", serverKeys.getPrivate().getEncoded()),
            StandardCharsets.US_ASCII);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }

    private static byte[] encoded(X509Certificate cert) {
        try {
            return cert.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encode the certificate just made: " + e.getMessage(), e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuer) {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a certificate with SHA256withECDSA: " + e.getMessage(), e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make EC P-256 keys: " + e.getMessage(), e);
        }
    }

    private static BigInteger serial() {
        // Positive and unique enough: two certificates from one CA must not share a serial number.
        return new BigInteger(63, new SecureRandom());
    }
}
