package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.bench.throughput.Interaction;
import dev.sluice.bench.throughput.Transport;
import org.junit.jupiter.api.Test;

class ChildOptionsTest {

    @Test
    void defaultsAreAClosedLoopOnLoopback() {
        ChildOptions o = ChildOptions.parse(new String[0]);
        assertThat(o).isEqualTo(new ChildOptions("127.0.0.1", 0, Interaction.STREAM, 4, 0, 512, 1024, 25, 20, 0,
            65_536, -1, 0, Transport.TCP, null, null));
        assertThat(o.paced()).isFalse();
        assertThat(o.websocket()).isFalse();
    }

    @Test
    void readsEveryOptionInBothSpellings() {
        ChildOptions o = ChildOptions.parse(new String[] {"--port", "7000", "--interaction=response", "--size",
            "140", "--window", "64", "--rate", "1_000", "--max-in-flight", "8", "--warmup", "0", "--seconds", "3",
            "--parent-pid", "42", "--max-seconds", "90", "--transport", "ws", "--metadata-size", "40"});
        assertThat(o).isEqualTo(new ChildOptions("127.0.0.1", 7000, Interaction.RESPONSE, 140, 40, 64, 1024, 0, 3,
            1000, 8, 42, 90, Transport.WS, null, null));
        assertThat(o.paced()).isTrue();
        assertThat(o.websocket()).isTrue();
    }

    @Test
    void tlsNeedsItsDirectoryAndAUnixSocketItsPath() {
        // rows: arguments -> transport, tls directory, socket path
        assertThat(ChildOptions.parse(new String[] {"--transport", "tls", "--tls", "/d"}))
            .extracting(ChildOptions::transport, ChildOptions::tls, ChildOptions::unixPath)
            .containsExactly(Transport.TLS, "/d", null);
        // --tls alone, as the TLS section of docs/benchmarks.md runs the mains: TLS over TCP.
        assertThat(ChildOptions.parse(new String[] {"--tls", "/d"}))
            .extracting(ChildOptions::transport, ChildOptions::tls).containsExactly(Transport.TLS, "/d");
        assertThat(ChildOptions.parse(new String[] {"--transport", "unix", "--unix-path", "/tmp/s.sock"}))
            .extracting(ChildOptions::transport, ChildOptions::tls, ChildOptions::unixPath)
            .containsExactly(Transport.UNIX, null, "/tmp/s.sock");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--transport", "ws", "--tls", "/d"}))
            .hasMessage("--tls runs over TCP only (--transport tcp or tls), got 'ws'");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--transport", "tls"}))
            .hasMessage("--transport tls needs --tls DIR");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--transport", "unix"}))
            .hasMessage("--transport unix needs --unix-path FILE");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--unix-path", "/tmp/s.sock"}))
            .hasMessage("--unix-path needs --transport unix, got 'tcp'");
    }

    @Test
    void errorsQuoteTheOffendingValue() {
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--size", "-1"}))
            .hasMessage("--size must be in [0, 1048576], got -1");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--port", "x"}))
            .hasMessageContaining("'--port'").hasMessageContaining("must be a whole number, got 'x'");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--interaction", "push"}))
            .hasMessage("unknown interaction 'push': expected one of stream, response, channel, fnf");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--speed", "1"}))
            .hasMessageStartingWith("Unknown options: '--speed', '1'");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--transport", "quic"}))
            .hasMessage("unknown transport 'quic': expected one of tcp, tls, unix, ws");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--port"}))
            .hasMessageStartingWith("Missing required parameter for option '--port'");
    }

    @Test
    void aRateIsOnlyForRequestResponse() {
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--interaction", "stream", "--rate", "10"}))
            .hasMessage("--rate is implemented for --interaction response only, got stream");
    }

    @Test
    void metadataIsForRequestResponseAndFitsAFrame() {
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--metadata-size", "40"}))
            .hasMessage("--metadata-size is implemented for --interaction response only, got stream");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--interaction", "response", "--metadata-size",
            "16777216"})).hasMessage("--metadata-size must be in [0, 16777215], got 16777216");
    }
}
