package dev.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
 * Test certificates made on the spot with BouncyCastle (EC P-256, SHA-256): CAs and certificates they issue, written
 * as PEM files (certificate chain, PKCS#8 key) into a directory. Nothing is checked in, so nothing expires in the
 * repository.
 */
public final class TestPki {

    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    private final Path dir;

    public TestPki(Path dir) {
        this.dir = dir;
    }

    /** A certificate and the key that signs with it, and where their PEM files are. */
    public record Issued(String name, X509Certificate certificate, KeyPair keys, Path certFile, Path keyFile) {
    }

    /** A self-signed CA named {@code CN=<cn>}; its certificate is written to {@code <name>.pem}. */
    public Issued ca(String name, String cn) {
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=" + cn);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(),
            Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(30))), subject,
            keys.getPublic());
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return write(name, sign(b, keys), keys, List.of());
    }

    /**
     * A certificate for {@code cn}, issued by {@code ca}, for the DNS names and IP addresses {@code sans}, usable by
     * servers and clients, valid from {@code notBefore} to {@code notAfter}; the chain file holds it and the CA's.
     */
    public Issued issue(Issued ca, String name, String cn, List<String> sans, Instant notBefore, Instant notAfter) {
        KeyPair keys = keyPair();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
            new X500Name(ca.certificate().getSubjectX500Principal().getName()), serial(), Date.from(notBefore),
            Date.from(notAfter), new X500Name("CN=" + cn), keys.getPublic());
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            if (!sans.isEmpty()) {
                List<GeneralName> names = new ArrayList<>();
                for (String san : sans) {
                    names.add(new GeneralName(Character.isDigit(san.charAt(0)) ? GeneralName.iPAddress
                        : GeneralName.dNSName, san));
                }
                b.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(names.toArray(GeneralName[]::new)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return write(name, sign(b, ca.keys()), keys, List.of(ca.certificate()));
    }

    /** {@link #issue} valid from yesterday for 30 days. */
    public Issued issue(Issued ca, String name, String cn, List<String> sans) {
        Instant now = Instant.now();
        return issue(ca, name, cn, sans, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)));
    }

    /** PEM text of a certificate. */
    public static String pem(X509Certificate cert) {
        try {
            return block("CERTIFICATE", cert.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private Issued write(String name, X509Certificate cert, KeyPair keys, List<X509Certificate> chainRest) {
        StringBuilder chain = new StringBuilder(pem(cert));
        for (X509Certificate c : chainRest) {
            chain.append(pem(c));
        }
        Path certFile = dir.resolve(name + ".pem");
        Path keyFile = dir.resolve(name + ".key");
        try {
            Files.writeString(certFile, chain, StandardCharsets.US_ASCII);
            Files.writeString(keyFile, block("PRIVATE KEY", keys.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Issued(name, cert, keys, certFile, keyFile);
    }

    private static String block(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
            + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuer) {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }
}
