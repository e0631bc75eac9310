package dev.sluice.cli.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.CliRun;
import org.junit.jupiter.api.Test;

/** The address syntax: every form it takes, how each is written back, and the one-line errors. */
class AddressTest {

    @Test
    void everyFormParses() {
        Object[][] rows = {
            // text, scheme, host, port, path, written back as
            {"127.0.0.1:7001", Scheme.TCP, "127.0.0.1", 7001, null, "tcp://127.0.0.1:7001"},
            {"tcp://localhost:0", Scheme.TCP, "localhost", 0, null, "tcp://localhost:0"},
            {"TCP://localhost:7000", Scheme.TCP, "localhost", 7000, null, "tcp://localhost:7000"},
            {"tls://rpc.example.com:7001", Scheme.TLS, "rpc.example.com", 7001, null, "tls://rpc.example.com:7001"},
            {"[::1]:7000", Scheme.TCP, "::1", 7000, null, "tcp://[::1]:7000"},
            {"tls://[fd00::7]:7001", Scheme.TLS, "fd00::7", 7001, null, "tls://[fd00::7]:7001"},
            {"ws://127.0.0.1:7000", Scheme.WS, "127.0.0.1", 7000, "/rsocket", "ws://127.0.0.1:7000/rsocket"},
            {"ws://127.0.0.1:7000/", Scheme.WS, "127.0.0.1", 7000, "/", "ws://127.0.0.1:7000/"},
            {"ws://[::1]:80/a/b", Scheme.WS, "::1", 80, "/a/b", "ws://[::1]:80/a/b"},
            {"wss://example.com:443/rs", Scheme.WSS, "example.com", 443, "/rs", "wss://example.com:443/rs"},
            {"unix:/run/sluice.sock", Scheme.UNIX, null, -1, "/run/sluice.sock", "unix:/run/sluice.sock"},
            {"unix:///run/sluice.sock", Scheme.UNIX, null, -1, "/run/sluice.sock", "unix:/run/sluice.sock"},
            {"unix:app.sock", Scheme.UNIX, null, -1, "app.sock", "unix:app.sock"},
        };
        for (Object[] row : rows) {
            Address a = Address.parse((String) row[0]);
            assertThat(a).as((String) row[0]).isEqualTo(new Address((Scheme) row[1], (String) row[2], (Integer) row[3],
                (String) row[4]));
            assertThat(a.toString()).as((String) row[0]).isEqualTo(row[5]);
            assertThat(Address.parse(a.toString())).as("%s read back", row[0]).isEqualTo(a);
        }
    }

    @Test
    void badValuesAreOneLineThatQuotesThem() {
        String[][] rows = {
            // text, the message
            {"", "expected host:port, tcp://host:port, tls://host:port, ws://host:port[/path],"
                    + " wss://host:port[/path] or unix:/path/to.sock, got ''"},
            {"localhost", "expected host:port, tcp://host:port, tls://host:port, ws://host:port[/path],"
                    + " wss://host:port[/path] or unix:/path/to.sock, got 'localhost'"},
            {":7000", "got ':7000'"},
            {"tls://localhost", "expected tls://host:port, got 'tls://localhost'"},
            {"ws://:7000/x", "expected ws://host:port[/path], got 'ws://:7000/x'"},
            {"http://localhost:80", "unknown scheme 'http' in 'http://localhost:80': expected host:port,"},
            {"tcp://localhost:7000/x", "tcp:// takes no path, got 'tcp://localhost:7000/x'"},
            {"ws://localhost:7000/x?y=1", "a query or fragment is not part of an address, got"
                    + " 'ws://localhost:7000/x?y=1'"},
            {"::1:7000", "an IPv6 address goes in brackets, e.g. [::1]:7000, got '::1:7000'"},
            {"[::1:7000", "expected [IPv6 address]:port, got '[::1:7000'"},
            {"[nope]:7000", "not an IPv6 address in brackets: 'nope' in '[nope]:7000'"},
            {"localhost:http", "the port must be a number, got 'localhost:http'"},
            {"localhost:65536", "the port must be between 0 and 65535, got 65536 in 'localhost:65536'"},
            {"unix:", "unix: needs the socket file's path, e.g. unix:/run/sluice.sock, got 'unix:'"},
            {"unix://host/x.sock", "expected unix:/path/to.sock or unix:///path/to.sock, got 'unix://host/x.sock'"},
        };
        for (String[] row : rows) {
            assertThatThrownBy(() -> Address.parse(row[0])).as(row[0])
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(row[1]).doesNotContain("\n"));
        }
    }

    /** picocli names the option in front of the message, and exits with 2. */
    @Test
    void onTheCommandLineTheOptionIsNamed() {
        assertThat(CliRun.run("load", "--target", "tls://localhost")).startsWith("2|")
            .contains("Invalid value for option '--target': expected tls://host:port, got 'tls://localhost'");
        assertThat(CliRun.run("echo-server", "--address", "ftp://localhost:21")).startsWith("2|")
            .contains("Invalid value for option '--address': unknown scheme 'ftp' in 'ftp://localhost:21'");
    }

    @Test
    void localMeansThisMachine() {
        assertThat(Address.parse("127.0.0.1:1").local()).isTrue();
        assertThat(Address.parse("[::1]:1").local()).isTrue();
        assertThat(Address.parse("localhost:1").local()).isTrue();
        assertThat(Address.parse("unix:/x.sock").local()).isTrue();
        assertThat(Address.parse("10.0.0.5:1").local()).isFalse();
        assertThat(Address.parse("rpc.example.com:1").local()).isFalse();
    }
}
