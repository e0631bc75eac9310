package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.bench.throughput.Interaction;
import org.junit.jupiter.api.Test;

class ChildOptionsTest {

    @Test
    void defaultsAreAClosedLoopOnLoopback() {
        ChildOptions o = ChildOptions.parse(new String[0]);
        assertThat(o).isEqualTo(new ChildOptions("127.0.0.1", 0, Interaction.STREAM, 4, 512, 1024, 25, 20, 0, 65_536,
            -1, 0, "tcp", null));
        assertThat(o.paced()).isFalse();
        assertThat(o.websocket()).isFalse();
    }

    @Test
    void readsEveryOptionInBothSpellings() {
        ChildOptions o = ChildOptions.parse(new String[] {"--port", "7000", "--interaction=response", "--size",
            "140", "--window", "64", "--rate", "1_000", "--max-in-flight", "8", "--warmup", "0", "--seconds", "3",
            "--parent-pid", "42", "--max-seconds", "90", "--transport", "ws"});
        assertThat(o).isEqualTo(new ChildOptions("127.0.0.1", 7000, Interaction.RESPONSE, 140, 64, 1024, 0, 3, 1000,
            8, 42, 90, "ws", null));
        assertThat(o.paced()).isTrue();
        assertThat(o.websocket()).isTrue();
        assertThat(ChildOptions.parse(new String[] {"--tls", "/etc/bench-tls"}).tls()).isEqualTo("/etc/bench-tls");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--transport", "ws", "--tls", "/etc/bench-tls"}))
            .hasMessage("--tls runs on --transport tcp only, got 'ws'");
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
            .hasMessage("--transport must be tcp or ws, got 'quic'");
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--port"}))
            .hasMessageStartingWith("Missing required parameter for option '--port'");
    }

    @Test
    void aRateIsOnlyForRequestResponse() {
        assertThatThrownBy(() -> ChildOptions.parse(new String[] {"--interaction", "stream", "--rate", "10"}))
            .hasMessage("--rate is implemented for --interaction response only, got stream");
    }
}
