package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.files.FileServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.testkit.TestPki;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The exit codes of {@link ExitCodesTest} for the address forms, TLS and tokens: every TLS failure a client can meet
 * exits 1 with one line naming the cause (and no stack trace) while the server goes on serving the next client;
 * inconsistent options exit 2 with a message naming them. Certificates are made on the spot ({@link TestPki}).
 */
class SecureExitCodesTest {

    private static final String TOKEN = "s3cret-token-4f9a";
    private static final String WRONG_TOKEN = "wrong-token-77c1";

    @TempDir
    static Path dir;

    private static final List<CloseableServer> servers = new ArrayList<>();
    private static TestPki.Issued ca;
    private static TestPki.Issued otherCa;
    private static TestPki.Issued server;
    private static TestPki.Issued client;
    private static String tls;
    private static String mutual;
    private static String expired;
    private static String otherName;
    private static String ws;
    private static String wss;
    private static String unix;
    private static String files;
    private static String plaintext;

    @BeforeAll
    static void start() throws IOException {
        TestPki pki = new TestPki(dir);
        ca = pki.ca("ca", "Test CA");
        otherCa = pki.ca("other-ca", "Other CA");
        server = pki.issue(ca, "server", "localhost", List.of("localhost", "127.0.0.1"));
        client = pki.issue(ca, "client", "client-1", List.of());
        Instant now = Instant.now();
        TestPki.Issued old = pki.issue(ca, "expired", "localhost", List.of("localhost", "127.0.0.1"),
            now.minus(Duration.ofDays(30)), now.minus(Duration.ofDays(1)));
        TestPki.Issued elsewhere = pki.issue(ca, "elsewhere", "other.example", List.of("other.example"));
        Files.writeString(dir.resolve("token"), "# the load client\n" + TOKEN + "\n");
        Files.writeString(dir.resolve("wrong-token"), WRONG_TOKEN + "\n");
        Files.writeString(dir.resolve("two-tokens"), TOKEN + "\n" + WRONG_TOKEN + "\n");
        Files.writeString(dir.resolve("no-token"), "# nothing yet\n\n");
        Files.writeString(dir.resolve("up.txt"), "up");
        Files.createDirectories(dir.resolve("served"));

        tls = "tls://127.0.0.1:" + echo("--address", "tls://127.0.0.1:0", "--tls-cert", cert(server),
            "--tls-key", key(server)).port();
        mutual = "tls://127.0.0.1:" + echo("--address", "tls://127.0.0.1:0", "--tls-cert", cert(server),
            "--tls-key", key(server), "--tls-client-ca", cert(ca)).port();
        expired = "tls://127.0.0.1:" + echo("--address", "tls://127.0.0.1:0", "--tls-cert", cert(old),
            "--tls-key", key(old)).port();
        otherName = "tls://127.0.0.1:" + echo("--address", "tls://127.0.0.1:0", "--tls-cert", cert(elsewhere),
            "--tls-key", key(elsewhere)).port();
        ws = "ws://127.0.0.1:" + echo("--address", "ws://127.0.0.1:0").port() + "/rsocket";
        wss = "wss://localhost:" + echo("--address", "wss://127.0.0.1:0/rs", "--tls-cert", cert(server), "--tls-key",
            key(server), "--tls-client-ca", cert(ca)).port() + "/rs";
        unix = "unix:" + dir.resolve("echo.sock");
        echo("--address", unix, "--auth-token-file", dir.resolve("token").toString());
        plaintext = "127.0.0.1:" + echo("--address", "127.0.0.1:0").port();
        FileServerCommand f = new FileServerCommand();
        new CommandLine(f).parseArgs("--address", "tls://localhost:0", "--tls-cert", cert(server), "--tls-key",
            key(server), "--auth-token-file", dir.resolve("token").toString(), "--dir",
            dir.resolve("served").toString());
        CloseableServer fileServer = f.start();
        servers.add(fileServer);
        files = "tls://localhost:" + fileServer.port();
    }

    private static CloseableServer echo(String... args) {
        EchoServerCommand e = new EchoServerCommand();
        new CommandLine(e).parseArgs(args);
        CloseableServer s = e.start();
        servers.add(s);
        return s;
    }

    private static String cert(TestPki.Issued issued) {
        return issued.certFile().toString();
    }

    private static String key(TestPki.Issued issued) {
        return issued.keyFile().toString();
    }

    @AfterAll
    static void stop() {
        servers.forEach(CloseableServer::dispose);
    }

    @Test
    void tlsFailuresExitOneWithTheirCauseAndTheServerServesTheNextClient() {
        String caFile = cert(ca);
        Object[][] rows = {
            // command, exit code, what the output says, arguments after the command
            {"load", 1, "sluice load: " + plaintextFormOf(tls) + " refused the connection: REJECTED_SETUP this server"
                    + " requires TLS",
                new String[] {"--target", plaintextFormOf(tls)}},
            {"load", 1, "sluice load: cannot connect to 127.0.0.1:" + port(tls)
                    + ": TLS handshake failed: certificate not trusted: issuer CN=Test CA is not a trusted CA",
                new String[] {"--target", tls, "--tls-ca", cert(otherCa)}},
            {"load", 1, "TLS handshake failed: certificate expired at ",
                new String[] {"--target", expired, "--tls-ca", caFile}},
            {"load", 1, "TLS handshake failed: hostname mismatch: certificate is for other.example, not 127.0.0.1",
                new String[] {"--target", otherName, "--tls-ca", caFile}},
            {"load", 1, "the server requires a client certificate",
                new String[] {"--target", mutual, "--tls-ca", caFile}},
            // The same servers, right after: they serve a client that gets it right.
            {"load", 0, "responses", new String[] {"--target", tls, "--tls-ca", caFile}},
            {"load", 0, "responses", new String[] {"--target", mutual, "--tls-ca", caFile, "--tls-cert", cert(client),
                "--tls-key", key(client)}},
            {"load", 0, "responses", new String[] {"--target", otherName, "--tls-ca", caFile, "--tls-server-name",
                "other.example"}},
            {"load", 0, "responses", new String[] {"--target", ws}},
            // WebSocket over TLS, with client certificates.
            {"load", 1, "TLS handshake failed: certificate not trusted", new String[] {"--target", wss, "--tls-ca",
                cert(otherCa), "--tls-cert", cert(client), "--tls-key", key(client)}},
            {"load", 0, "responses", new String[] {"--target", wss, "--tls-ca", caFile, "--tls-cert", cert(client),
                "--tls-key", key(client)}},
            {"load", 0, "responses", new String[] {"--target", plaintext}},
            // Tokens: the right one, a wrong one, none.
            {"load", 0, "responses", new String[] {"--target", unix, "--auth-token-file",
                dir.resolve("token").toString()}},
            {"load", 1, "sluice load: " + unix + " refused the connection: REJECTED_SETUP authentication failed",
                new String[] {"--target", unix, "--auth-token-file", dir.resolve("wrong-token").toString()}},
            {"load", 1, "sluice load: " + unix + " refused the connection: REJECTED_SETUP missing credentials",
                new String[] {"--target", unix}},
            {"upload", 0, "uploaded", new String[] {"--target", files, "--tls-ca", caFile, "--auth-token-file",
                dir.resolve("token").toString(), dir.resolve("up.txt").toString()}},
            {"upload", 1, "sluice upload: " + files + " refused the connection: REJECTED_SETUP authentication"
                    + " failed", new String[] {"--target", files, "--tls-ca", caFile, "--auth-token-file",
                    dir.resolve("wrong-token").toString(), dir.resolve("up.txt").toString()}},
            {"download", 0, "downloaded", new String[] {"--target", files, "--tls-ca", caFile, "--auth-token-file",
                dir.resolve("token").toString(), "up.txt", "--output", dir.resolve("down.txt").toString()}},
            {"download", 1, "TLS handshake failed: certificate not trusted", new String[] {"--target", files,
                "--tls-ca", cert(otherCa), "up.txt", "--output", dir.resolve("never.txt").toString()}},
        };
        for (Object[] row : rows) {
            List<String> args = new ArrayList<>(List.of((String) row[0]));
            if (row[0].equals("load")) {
                args.addAll(List.of("--rps", "20", "--duration", "1s"));
            }
            args.addAll(List.of((String[]) row[3]));
            String out = CliRun.run(args.toArray(String[]::new));
            assertThat(out).as("sluice %s", String.join(" ", args)).startsWith(row[1] + "|").contains((String) row[2])
                .doesNotContain("\tat ").doesNotContain(TOKEN).doesNotContain(WRONG_TOKEN);
            if ((Integer) row[1] == 1) {
                String last = out.strip().lines().reduce((a, b) -> b).orElseThrow().replaceFirst("^1\\|", "");
                assertThat(last).as("one line naming the command: %s", out).startsWith("sluice " + row[0] + ": ")
                    .contains((String) row[2]).doesNotContain("Exception");
            }
        }
    }

    @Test
    void inconsistentOptionsAreUsageErrors() {
        String missing = dir.resolve("missing").toString();
        String[][] rows = {
            // what the message says, the command line
            {"--address tls://127.0.0.1:0 serves TLS: it needs --tls-cert FILE and --tls-key FILE",
                "echo-server", "--address", "tls://127.0.0.1:0"},
            {"--address tls://127.0.0.1:0 serves TLS: it needs --tls-cert FILE and --tls-key FILE (--tls-key is"
                    + " missing)", "server", "--address", "tls://127.0.0.1:0", "--tls-cert", cert(server)},
            {"--tls-cert needs a tls:// or wss:// --address, got 'tcp://127.0.0.1:0' (plaintext)",
                "echo-server", "--address", "127.0.0.1:0", "--tls-cert", cert(server), "--tls-key", key(server)},
            {"--tls-client-ca needs a tls:// or wss:// --address, got 'unix:/tmp/x.sock' (plaintext)",
                "proxy", "--address", "unix:/tmp/x.sock", "--tls-client-ca", cert(ca), "--servers", plaintext},
            {"--tls-ca needs a tls:// or wss:// --target, got 'tcp://" + plaintext + "' (plaintext)",
                "load", "--target", plaintext, "--tls-ca", cert(ca)},
            {"--tls-cert needs --tls-key", "download", "--target", tls, "--tls-cert", cert(client), "x"},
            {"--address wss://127.0.0.1:0/rsocket serves TLS: it needs --tls-cert FILE and --tls-key FILE",
                "file-server", "--address", "wss://127.0.0.1:0", "--dir", dir.toString()},
            {"--tls-server-name needs a tls:// or wss:// --target, got 'ws://127.0.0.1:1/rsocket' (plaintext)",
                "load", "--target", "ws://127.0.0.1:1", "--tls-server-name", "localhost"},
            {"--servers-tls-ca needs a tls:// or wss:// server in --servers", "proxy", "--address", "127.0.0.1:0",
                "--servers", plaintext, "--servers-tls-ca", cert(ca)},
            {"--auth-token-file " + missing + ": no such file", "echo-server", "--address", "127.0.0.1:0",
                "--auth-token-file", missing},
            {"--auth-token-file " + dir.resolve("no-token") + " holds no token", "server", "--address",
                "127.0.0.1:0", "--auth-token-file", dir.resolve("no-token").toString()},
            {"--auth-token-file " + dir.resolve("two-tokens") + " holds 2 tokens; a client sends one", "load",
                "--target", plaintext, "--auth-token-file", dir.resolve("two-tokens").toString()},
            {"cannot read TLS certificate chain " + missing, "echo-server", "--address", "tls://127.0.0.1:0",
                "--tls-cert", missing, "--tls-key", key(server)},
            {"--socket-permissions needs a unix: --address, got 'tcp://127.0.0.1:0'", "server", "--address",
                "127.0.0.1:0", "--socket-permissions", "rw-------"},
            {"--socket-permissions: permissions must be 9 characters such as rw-rw----, got '660'", "echo-server",
                "--address", "unix:" + dir.resolve("perm.sock"), "--socket-permissions", "660"},
        };
        for (String[] row : rows) {
            String[] args = java.util.Arrays.copyOfRange(row, 1, row.length);
            String out = CliRun.run(args);
            assertThat(out).as("sluice %s", String.join(" ", args)).startsWith("2|").contains(row[0])
                .contains("Usage: sluice " + row[1]).doesNotContain("\tat ").doesNotContain(TOKEN);
        }
    }

    @Test
    void aUnixSocketFileGetsThePermissionsAsked() throws Exception {
        Path socket = dir.resolve("private.sock");
        echo("--address", "unix:" + socket, "--socket-permissions", "rw-------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
            .isEqualTo("rw-------");
    }

    private static String port(String address) {
        return address.substring(address.lastIndexOf(':') + 1);
    }

    private static String plaintextFormOf(String tlsAddress) {
        return "tcp://" + tlsAddress.substring("tls://".length());
    }
}
