package dev.sluice.transport.netty.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files TLS is configured with: certificate chains and CA bundles ({@code BEGIN CERTIFICATE} blocks,
 * leaf first) and unencrypted PKCS#8 private keys ({@code BEGIN PRIVATE KEY}; RSA, EC or EdDSA). Every failure is an
 * {@link IllegalArgumentException} whose one-line message names the file and what is wrong with it, with the advice
 * that fixes the usual mistakes (a PKCS#1 or encrypted key). Stateless.
 */
public final class PemFiles {

    private static final Pattern KEY_BLOCK = Pattern.compile(
        "-----BEGIN ([A-Z ]*)PRIVATE KEY-----([A-Za-z0-9+/=\\s]*)-----END \\1PRIVATE KEY-----");

    private PemFiles() {
    }

    /**
     * The certificates of {@code file}, in file order.
     *
     * @param what the file's role for the message, such as {@code "TLS certificate chain"}
     * @throws IllegalArgumentException if the file cannot be read or holds no certificate
     */
    public static X509Certificate[] certificates(Path file, String what) {
        byte[] bytes = read(file, what);
        if (!new String(bytes, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
            throw new IllegalArgumentException(what + " " + file + " holds no certificate (no BEGIN CERTIFICATE"
                + " block)");
        }
        try {
            X509Certificate[] certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(bytes)).stream()
                .map(X509Certificate.class::cast)
                .toArray(X509Certificate[]::new);
            return certs;
        } catch (CertificateException e) {
            throw new IllegalArgumentException(what + " " + file + " is not a PEM certificate file: "
                + firstLine(e.getMessage()), e);
        }
    }

    /**
     * The unencrypted PKCS#8 private key of {@code file}.
     *
     * @throws IllegalArgumentException if the file cannot be read, holds no key, or holds one in another form
     */
    public static PrivateKey privateKey(Path file, String what) {
        String text = new String(read(file, what), StandardCharsets.US_ASCII);
        Matcher m = KEY_BLOCK.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException(what + " " + file + " holds no PEM private key (no BEGIN PRIVATE KEY"
                + " block)");
        }
        String kind = m.group(1).trim();
        if (kind.equals("ENCRYPTED")) {
            throw new IllegalArgumentException(what + " " + file + " is encrypted, which is not supported: decrypt it"
                + " with 'openssl pkcs8 -in " + file + " -out KEY.pem' and keep that file readable only by the"
                + " server");
        }
        if (!kind.isEmpty()) {
            throw new IllegalArgumentException(what + " " + file + " is a " + kind + " PRIVATE KEY (PKCS#1/SEC1),"
                + " not PKCS#8: convert it with 'openssl pkcs8 -topk8 -nocrypt -in " + file + " -out KEY.pem'");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " " + file + " has a damaged PEM block: " + e.getMessage(), e);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException notThisOne) {
                // try the next algorithm
            }
        }
        throw new IllegalArgumentException(what + " " + file + " is not an RSA, EC or EdDSA private key this JVM can"
            + " read");
    }

    /**
     * Checks that {@code key} belongs to {@code leaf}: signs a few bytes and verifies them with the certificate's
     * public key. A renewal that replaced the certificate but not yet the key fails here, not at the next handshake.
     *
     * @throws IllegalArgumentException if they do not match
     */
    public static void checkKeyMatches(PrivateKey key, X509Certificate leaf, Path keyFile, Path chainFile) {
        String algorithm = signatureAlgorithm(key);
        if (algorithm == null) {
            return;
        }
        boolean matches;
        try {
            byte[] probe = "sluice key check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            // A public key of another family (an RSA certificate, an EC key) fails here with InvalidKeyException.
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new IllegalArgumentException("private key " + keyFile + " does not belong to the certificate "
                + leaf.getSubjectX500Principal().getName() + " of " + chainFile);
        }
    }

    private static String signatureAlgorithm(PrivateKey key) {
        switch (key.getAlgorithm()) {
            case "RSA":
                return "SHA256withRSA";
            case "EC":
                return "SHA256withECDSA";
            case "Ed25519":
            case "Ed448":
            case "EdDSA":
                return "EdDSA";
            default:
                // RSASSA-PSS needs parameters; its pair is checked at the first handshake instead.
                return null;
        }
    }

    private static byte[] read(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": permission denied", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e.getMessage(), e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
