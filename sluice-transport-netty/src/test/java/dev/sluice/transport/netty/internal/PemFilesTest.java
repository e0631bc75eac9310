package dev.sluice.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testkit.TestPki;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PEM files TLS reads: what is accepted, and the one-line message for each usual mistake. */
class PemFilesTest {

    @TempDir
    Path dir;
    private TestPki.Issued ca;
    private TestPki.Issued leaf;

    @BeforeEach
    void certificates() {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Sluice Test CA");
        leaf = pki.issue(ca, "leaf", "localhost", List.of("localhost"));
    }

    @Test
    void aChainFileIsReadLeafFirst() {
        assertThat(PemFiles.certificates(leaf.certFile(), "chain"))
            .containsExactly(leaf.certificate(), ca.certificate());
    }

    @Test
    void aPkcs8KeyIsReadAndMatchesItsCertificate() {
        PemFiles.checkKeyMatches(PemFiles.privateKey(leaf.keyFile(), "key"), leaf.certificate(), leaf.keyFile(),
            leaf.certFile());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.pem");
        assertThatThrownBy(() -> PemFiles.certificates(missing, "TLS certificate chain"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("cannot read TLS certificate chain " + missing + ": no such file");
    }

    @Test
    void aFileWithoutCertificatesIsRefused() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.pem"), "\n");
        assertThatThrownBy(() -> PemFiles.certificates(empty, "TLS CA file"))
            .hasMessage("TLS CA file " + empty + " holds no certificate (no BEGIN CERTIFICATE block)");
    }

    @Test
    void aPkcs1KeyIsRefusedWithTheCommandThatConvertsIt() throws IOException {
        Path rsa = Files.writeString(dir.resolve("rsa.key"),
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        assertThatThrownBy(() -> PemFiles.privateKey(rsa, "TLS private key"))
            .hasMessage("TLS private key " + rsa + " is a RSA PRIVATE KEY (PKCS#1/SEC1), not PKCS#8: convert it with"
                + " 'openssl pkcs8 -topk8 -nocrypt -in " + rsa + " -out KEY.pem'");
    }

    @Test
    void anEncryptedKeyIsRefused() throws IOException {
        Path encrypted = Files.writeString(dir.resolve("enc.key"),
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThatThrownBy(() -> PemFiles.privateKey(encrypted, "TLS private key"))
            .hasMessageStartingWith("TLS private key " + encrypted + " is encrypted, which is not supported");
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() {
        TestPki.Issued other = new TestPki(dir).issue(ca, "other", "other", List.of("other"));
        assertThatThrownBy(() -> PemFiles.checkKeyMatches(PemFiles.privateKey(other.keyFile(), "key"),
            leaf.certificate(), other.keyFile(), leaf.certFile()))
            .hasMessage("private key " + other.keyFile() + " does not belong to the certificate CN=localhost of "
                + leaf.certFile());
    }
}
