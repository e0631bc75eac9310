package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void defaultsRunEveryCellAsTheIssueAsks() {
        BenchOptions o = BenchOptions.parse(new String[0]);
        // The transport cells; the RPC cells (sluice-rpc, grpc-proto) run when asked for.
        assertThat(o.impls()).containsExactly(Impl.SLUICE, Impl.RSOCKET_JAVA, Impl.GRPC_JAVA, Impl.NETTY_FLOOR);
        assertThat(o.interactions()).containsExactly(Interaction.values());
        assertThat(o.sizes()).containsExactly(4, 140);
        assertThat(o.warmupSeconds()).isEqualTo(25);
        assertThat(o.seconds()).isEqualTo(20);
        assertThat(o.out()).isEqualTo(Path.of("docs/benchmarks.md"));
        assertThat(o.latencyPercents()).isEmpty();
        assertThat(o.window()).isEqualTo(512);
        assertThat(o.transports()).containsExactly(Transport.TCP);
    }

    @Test
    void transportsAreAListInTheOrderGiven() {
        // rows: --transport value -> transports
        assertThat(BenchOptions.parse(new String[] {"--transport", "tcp,tls,unix,ws"}).transports())
            .containsExactly(Transport.TCP, Transport.TLS, Transport.UNIX, Transport.WS);
        assertThat(BenchOptions.parse(new String[] {"--transport", "ws,tcp", "--transport", "ws"}).transports())
            .containsExactly(Transport.WS, Transport.TCP);
        assertThat(BenchOptions.parse(new String[] {"--transport=tls"}).transports()).containsExactly(Transport.TLS);
    }

    @Test
    void aTransportRunHasSmallerDefaultsThatExplicitOptionsOverride() {
        BenchOptions o = BenchOptions.parse(new String[] {"--transport", "tcp,tls,unix,ws"});
        assertThat(o.transportRun()).isTrue();
        assertThat(o.impls()).containsExactly(Impl.SLUICE, Impl.RSOCKET_JAVA, Impl.GRPC_JAVA);
        assertThat(o.interactions()).containsExactly(Interaction.STREAM, Interaction.RESPONSE);
        assertThat(o.sizes()).containsExactly(4, 140);
        assertThat(o.warmupSeconds()).isEqualTo(10);
        assertThat(o.seconds()).isEqualTo(10);
        // 16 Sluice cells, 8 each for rsocket-java and grpc-java (TCP and TLS): 32 cells of 24 s.
        assertThat(Bench.plan(o, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
            .hasSize(32);

        BenchOptions explicit = BenchOptions.parse(new String[] {"--transport", "tls", "--impl", "netty-floor",
            "--interaction", "fnf", "--warmup", "25", "--seconds", "20"});
        assertThat(explicit.impls()).containsExactly(Impl.NETTY_FLOOR);
        assertThat(explicit.interactions()).containsExactly(Interaction.FNF);
        assertThat(explicit.warmupSeconds()).isEqualTo(25);
        assertThat(explicit.seconds()).isEqualTo(20);
        // tcp alone, however spelled, is the plain comparison with its own defaults.
        BenchOptions tcp = BenchOptions.parse(new String[] {"--transport", "tcp,tcp"});
        assertThat(tcp.transportRun()).isFalse();
        assertThat(tcp.warmupSeconds()).isEqualTo(25);
        assertThat(tcp.impls()).contains(Impl.NETTY_FLOOR);
    }

    @Test
    void aTransportItDoesNotKnowIsAUsageError() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--transport", "tcp,quic"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown transport 'quic': expected one of tcp, tls, unix, ws");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--transport", ""}))
            .hasMessage("unknown transport '': expected one of tcp, tls, unix, ws");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--transport", "tls,ws", "--latency"}))
            .hasMessage("--latency runs over plaintext TCP only, so --transport must include tcp, got 'tls,ws'");
        assertThat(BenchOptions.parse(new String[] {"--transport", "tcp,tls", "--latency"}).latencyPercents())
            .containsExactly(50, 90);
    }

    @Test
    void planRunsEachCellOverEveryTransportItsImplementationRunsOverAndSaysWhatItSkips() {
        BenchOptions o = BenchOptions.parse(new String[] {"--impl", "sluice,rsocket-java,grpc-java,netty-floor",
            "--interaction", "response", "--size", "4", "--transport", "tcp,tls,unix,ws"});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Cell> cells = Bench.plan(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(cells).extracting(c -> c.impl().option() + " " + c.transport().option()).containsExactly(
            "sluice tcp", "sluice tls", "sluice unix", "sluice ws",
            "rsocket-java tcp", "rsocket-java tls",
            "grpc-java tcp", "grpc-java tls",
            "netty-floor tcp");
        assertThat(cells).allMatch(c -> c.interaction() == Interaction.RESPONSE && c.size() == 4 && !c.paced());
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
            "cells skipped, transports a benchmark main does not offer:"
            + " rsocket-java over unix, ws (its benchmark mains run tcp, tls);"
            + " grpc-java over unix, ws (its benchmark mains run tcp, tls);"
            + " raw-Netty floor over tls, unix, ws (its benchmark mains run tcp)\n");
    }

    @Test
    void cellsNameTheirTransportExceptPlaintextTcp() {
        assertThat(Cell.max(Impl.SLUICE, Interaction.RESPONSE, 4).label()).isEqualTo("Sluice request-response 4 B");
        assertThat(Cell.max(Impl.GRPC_JAVA, Interaction.STREAM, 140, Transport.TLS).label())
            .isEqualTo("grpc-java request-stream 140 B over TLS");
        assertThat(Cell.max(Impl.SLUICE, Interaction.RESPONSE, 4, Transport.UNIX).fileStem())
            .isEqualTo("sluice-response-4-unix");
        assertThat(Cell.max(Impl.SLUICE, Interaction.RESPONSE, 4).fileStem()).isEqualTo("sluice-response-4");
    }

    @Test
    void listsMayBeCommaSeparatedOrRepeated() {
        BenchOptions o = BenchOptions.parse(new String[] {"--impl", "sluice,grpc-java", "--impl", "sluice",
            "--size", "140", "--latency", "--jvm-arg", "-XX:+UseG1GC", "--jvm-arg", "-Dx=1"});
        assertThat(o.impls()).containsExactly(Impl.SLUICE, Impl.GRPC_JAVA);
        assertThat(o.sizes()).containsExactly(140);
        assertThat(o.latencyPercents()).containsExactly(50, 90);
        assertThat(o.jvmArgs()).containsExactly("-XX:+UseG1GC", "-Dx=1");
    }

    @Test
    void rejectsWhatCannotBeRun() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--server-cpu", "1"}))
            .hasMessage("--server-cpu and --client-cpu must differ, both are 1");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--latency-rates", "50"}))
            .hasMessage("--latency-rates needs --latency");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--impl", "tars"}))
            .hasMessage("unknown implementation 'tars': expected one of sluice, sluice-metrics, rsocket-java,"
                + " grpc-java, sluice-rpc, grpc-proto, grpc-bridge, netty-floor");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--latency", "--latency-rates", "0"}))
            .hasMessage("--latency-rates values must be in [1, 100], got 0");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--latency-repeats", "3"}))
            .hasMessage("--latency-repeats needs --latency");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--latency", "--latency-repeats", "0"}))
            .hasMessage("--latency-repeats must be in [1, 20], got 0");
    }

    @Test
    void latencyRunsAreMadeOnceUnlessRepeatsAreAskedFor() {
        assertThat(BenchOptions.parse(new String[] {"--latency"}).latencyRepeats()).isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"--latency", "--latency-repeats", "3"}).latencyRepeats())
            .isEqualTo(3);
    }

    @Test
    void throughputCellsAreRunOnceUnlessRoundsAreAskedForOverPlaintextTcp() {
        assertThat(BenchOptions.parse(new String[0]).repeats()).isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"--repeats", "3"}).repeats()).isEqualTo(3);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--repeats", "0"}))
            .hasMessage("--repeats must be in [1, 20], got 0");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--repeats", "2", "--transport", "tcp,tls"}))
            .hasMessage("--repeats compares stacks over plaintext TCP, so --transport must be tcp alone, got"
                + " 'tcp,tls'");
    }

    @Test
    void helpListsEveryOptionOfTheHandWrittenParserItReplaced() {
        String usage = BenchOptions.usage();
        assertThat(usage).startsWith("Usage: bin/sluice bench [options]\n"
            + "   (or java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.Bench [options])\n")
            .contains("Runs every selected cell {implementation} x {interaction} x {payload size}");
        for (String option : List.of("--impl=LIST", "--interaction=LIST", "--size=LIST", "--warmup=S", "--seconds=N",
            "--out=FILE", "--latency", "--latency-rates=LIST", "--latency-repeats=N", "--repeats=N",
            "--window=N", "--demand=N",
            "--paced-max-in-flight=N",
            "--server-cpu=N", "--client-cpu=N", "--heap=SIZE", "--jvm-arg=ARG", "--logs=DIR", "--json", "--help",
            "--transport=LIST")) {
            assertThat(usage).as(option).contains(option);
        }
        assertThat(BenchOptions.parse(new String[] {"--help"}).help()).isTrue();
        assertThat(BenchOptions.parse(new String[] {"--json", "--seconds=1_0"}).json()).isTrue();
        assertThat(BenchOptions.parse(new String[] {"--seconds=1_0"}).seconds()).isEqualTo(10);
    }

    @Test
    void planSkipsWhatAnImplementationDoesNotDo() {
        BenchOptions o = BenchOptions.parse(new String[] {"--interaction", "stream,fnf", "--size", "4,140"});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Cell> cells = Bench.plan(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(cells).hasSize(4 * 2 + 2 * 2);
        assertThat(cells).filteredOn(c -> c.interaction() == Interaction.FNF).extracting(Cell::impl)
            .containsOnly(Impl.SLUICE, Impl.RSOCKET_JAVA);
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .isEqualTo("not in the comparison, skipped: grpc-java fire-and-forget, raw-Netty floor fire-and-forget\n");
    }
}
