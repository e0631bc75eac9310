package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.WholeNumbers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The driver's options; see {@link #usage()}.
 *
 * @param latencyPercents offered rates of the latency runs, in percent of each cell's measured maximum; empty when
 *                        {@code --latency} is off
 * @param latencyRepeats  how many times each latency run is made, the runs taken in turn
 * @param repeats         how many times each throughput cell is run, round after round
 * @param json            print one JSON summary on stdout instead of the tables
 * @param transports      what every cell runs over, in order; {@code [TCP]} is the plain comparison
 */
record BenchOptions(List<Impl> impls, List<Interaction> interactions, List<Integer> sizes, List<Transport> transports,
        int warmupSeconds,
        int seconds, Path out, List<Integer> latencyPercents, int latencyRepeats, int repeats, int window, int demand,
        int pacedMaxInFlight,
        int serverCpu, int clientCpu, String heap, List<String> jvmArgs, Path logs, boolean help, boolean json) {

    /**
     * Whether this is a transport run: any transport but plaintext TCP alone. It writes the report's transport section
     * instead of its throughput section, and has smaller defaults.
     */
    boolean transportRun() {
        return !transports.equals(List.of(Transport.TCP));
    }

    /**
     * Parses the driver's arguments.
     *
     * @throws IllegalArgumentException on an unknown option, a missing or wrong value, or options that contradict
     *     each other; the message names the option and quotes the value
     */
    static BenchOptions parse(String[] argv) {
        CommandLine cli = new CommandLine(new Line());
        try {
            cli.parseArgs(argv);
            return ((Line) cli.getCommand()).options();
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The help text: what the driver does, then every option with its default. */
    static String usage() {
        return new CommandLine(new Line()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The command line as picocli reads it; {@link #options()} checks it and makes the record. */
    @Command(name = "bench", sortOptions = false, usageHelpWidth = 116,
        customSynopsis = {"bin/sluice bench [options]",
            "   (or java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.Bench [options])"},
        description = {"",
            "Runs every selected cell {implementation} x {interaction} x {payload size} x {transport}: a server JVM"
                + " pinned to one core and a client JVM pinned to the other (taskset, -XX:ActiveProcessorCount=1), a"
                + " warm-up,"
                + " then one throughput figure per second; prints the median and min-max per cell and Sluice's"
                + " ratios to each peer, and writes them to a Markdown file.",
            ""})
    static final class Line {

        private static final List<String> DEFAULT_IMPLS = List.of("sluice", "rsocket-java", "grpc-java", "netty-floor");
        private static final List<String> DEFAULT_INTERACTIONS = List.of("stream", "response", "channel", "fnf");
        /*
         * A transport run multiplies the cells by up to four: without the floor (TCP only), the channel and
         * fire-and-forget (no target over other transports) and with shorter cells, tcp,tls,unix,ws is 32 cells of
         * 24 s, about 13 minutes, instead of 60 of 49 s.
         */
        private static final List<String> TRANSPORT_RUN_IMPLS = List.of("sluice", "rsocket-java", "grpc-java");
        private static final List<String> TRANSPORT_RUN_INTERACTIONS = List.of("stream", "response");
        private static final long TRANSPORT_RUN_SECONDS = 10;

        @Option(names = "--impl", paramLabel = "LIST", hideParamSyntax = true, split = ",",
            description = "sluice,rsocket-java,grpc-java,netty-floor (the default; in a transport run"
                + " sluice,rsocket-java,grpc-java); the RPC cells are sluice-rpc and grpc-proto (the same .proto on"
                + " Sluice RPC and on grpc-java), with sluice for the RPC layer's cost; grpc-bridge is the Sluice RPC"
                + " service served to grpc-java clients by GrpcBridge, with grpc-proto for the bridge's cost;"
                + " sluice-metrics is Sluice's server with metrics on, with sluice for their cost")
        List<String> impls;

        @Option(names = "--interaction", paramLabel = "LIST", hideParamSyntax = true, split = ",",
            description = "stream,response,channel,fnf (default: all; in a transport run stream,response);"
                + " grpc-java and the floor do stream and response only")
        List<String> interactions;

        @Option(names = "--size", paramLabel = "LIST", hideParamSyntax = true, split = ",",
            converter = WholeNumbers.Converter.class,
            description = "payload sizes in bytes (default: 4,140)")
        List<Long> sizes = new ArrayList<>(List.of(4L, 140L));

        @Option(names = "--transport", paramLabel = "LIST", hideParamSyntax = true, split = ",",
            description = "tcp,tls,unix,ws: runs every selected cell once per transport (default: tcp) and reports"
                + " each transport's msgs/s and ratio to plaintext TCP, and Sluice's ratios to the peers with TLS on"
                + " for every stack. Sluice runs them all, rsocket-java and grpc-java tcp and tls, the floor tcp;"
                + " the others are skipped with the reason. TLS uses a CA and a certificate for 127.0.0.1 made for"
                + " the run, Unix sockets a socket file in a temporary directory; both are removed at the end."
                + " A transport run (anything but tcp alone) has smaller defaults, so that --transport"
                + " tcp,tls,unix,ws takes about 13 minutes, and writes the report's transport section, leaving its"
                + " throughput section as it was")
        List<String> transports = new ArrayList<>(List.of("tcp"));

        @Option(names = "--warmup", paramLabel = "S", converter = WholeNumbers.Converter.class,
            description = "warm-up seconds per cell (default: 25; in a transport run 10)")
        Long warmup;

        @Option(names = "--seconds", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "measured one-second figures per cell (default: 20; in a transport run 10)")
        Long seconds;

        @Option(names = "--out", paramLabel = "FILE",
            description = "Markdown report, its throughput (or transport) section replaced, and its latency"
                + " section with --latency (default: docs/benchmarks.md)")
        Path out = Path.of("docs/benchmarks.md");

        @Option(names = "--latency",
            description = "also run request-response at fixed offered rates and report p50/p99/p99.9 (over"
                + " plaintext TCP only)")
        boolean latency;

        @Option(names = "--latency-rates", paramLabel = "LIST", hideParamSyntax = true, split = ",",
            converter = WholeNumbers.Converter.class,
            description = "offered rates in percent of each cell's measured median (default: 50,90)")
        List<Long> latencyRates;

        @Option(names = "--latency-repeats", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "make every latency run N times, taking the runs in turn (Sluice, then its peers, then"
                + " Sluice again...), and report each figure's median with every run's p99: one run's tail"
                + " latency depends on what else the machine did during it (default: 1)")
        Long latencyRepeats;

        @Option(names = "--repeats", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "run every throughput cell N times, round after round (each cell once, then each again...),"
                + " and report each cell's median over its runs and each ratio's median over the rounds, every"
                + " run's figure beside it: on a shared machine one run of a cell says as much about its neighbours"
                + " as about the stack (plaintext TCP only; default: 1)")
        Long repeats;

        @Option(names = "--window", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "request-response requests in flight (default: 512)")
        long window = 512;

        @Option(names = "--demand", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "stream/channel demand window, fire-and-forget round (default: 1024)")
        long demand = 1024;

        @Option(names = "--paced-max-in-flight", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "unanswered requests before a paced client waits (default: 65536)")
        long pacedMaxInFlight = 65_536;

        @Option(names = "--server-cpu", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "core for the server JVMs (default: 0)")
        long serverCpu = 0;

        @Option(names = "--client-cpu", paramLabel = "N", converter = WholeNumbers.Converter.class,
            description = "core for the client JVMs (default: 1)")
        long clientCpu = 1;

        @Option(names = "--heap", paramLabel = "SIZE", description = "-Xms and -Xmx of every JVM (default: 1g)")
        String heap = "1g";

        @Option(names = "--jvm-arg", paramLabel = "ARG",
            description = "an extra JVM option for every server and client (repeatable)")
        List<String> jvmArgs = new ArrayList<>();

        @Option(names = "--logs", paramLabel = "DIR",
            description = "where each JVM's output goes (default: a new temporary directory)")
        Path logs;

        @Option(names = "--json", description = "print one JSON summary of every cell on stdout instead of the"
            + " tables (fields: docs/cli.md); the Markdown report is still written")
        boolean json;

        @Option(names = "--help", usageHelp = true, description = "this text")
        boolean help;

        @Spec
        CommandSpec spec;

        BenchOptions options() {
            List<Impl> impls = new ArrayList<>();
            List<Interaction> interactions = new ArrayList<>();
            List<Transport> transports = new ArrayList<>();
            boolean transportRun;
            try {
                this.transports.forEach(s -> transports.add(Transport.parse(s)));
                transportRun = !distinct(transports).equals(List.of(Transport.TCP));
                (this.impls != null ? this.impls : transportRun ? TRANSPORT_RUN_IMPLS : DEFAULT_IMPLS)
                    .forEach(s -> impls.add(Impl.parse(s)));
                (this.interactions != null ? this.interactions : transportRun ? TRANSPORT_RUN_INTERACTIONS
                    : DEFAULT_INTERACTIONS).forEach(s -> interactions.add(Interaction.parse(s)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            long warmup = this.warmup != null ? this.warmup : transportRun ? TRANSPORT_RUN_SECONDS : 25;
            long seconds = this.seconds != null ? this.seconds : transportRun ? TRANSPORT_RUN_SECONDS : 20;
            if (latency && !transports.contains(Transport.TCP)) {
                throw new ParameterException(spec.commandLine(), "--latency runs over plaintext TCP only, so"
                    + " --transport must include tcp, got '" + String.join(",", this.transports) + "'");
            }
            List<Integer> sizes = new ArrayList<>();
            for (long s : this.sizes) {
                sizes.add(WholeNumbers.inRange(spec, "--size", s, 0, ChildOptions.MAX_SIZE));
            }
            List<Integer> percents = new ArrayList<>();
            if (latency) {
                for (long p : latencyRates == null ? List.of(50L, 90L) : latencyRates) {
                    percents.add(WholeNumbers.inRange(spec, "--latency-rates values", p, 1, 100));
                }
            } else if (latencyRates != null) {
                throw new ParameterException(spec.commandLine(), "--latency-rates needs --latency");
            } else if (latencyRepeats != null) {
                throw new ParameterException(spec.commandLine(), "--latency-repeats needs --latency");
            }
            int latencyRuns = WholeNumbers.inRange(spec, "--latency-repeats",
                latencyRepeats == null ? 1 : latencyRepeats, 1, 20);
            if (repeats != null && transportRun) {
                throw new ParameterException(spec.commandLine(), "--repeats compares stacks over plaintext TCP, so"
                    + " --transport must be tcp alone, got '" + String.join(",", this.transports) + "'");
            }
            int runs = WholeNumbers.inRange(spec, "--repeats", repeats == null ? 1 : repeats, 1, 20);
            int server = WholeNumbers.inRange(spec, "--server-cpu", serverCpu, 0, 4095);
            int client = WholeNumbers.inRange(spec, "--client-cpu", clientCpu, 0, 4095);
            if (server == client) {
                throw new ParameterException(spec.commandLine(), "--server-cpu and --client-cpu must differ, both"
                    + " are " + server);
            }
            if (!heap.matches("[0-9]+[kKmMgG]?")) {
                throw new ParameterException(spec.commandLine(), "--heap must look like 1g or 512m, got '" + heap
                    + "'");
            }
            return new BenchOptions(distinct(impls), distinct(interactions), distinct(sizes), distinct(transports),
                WholeNumbers.inRange(spec, "--warmup", warmup, 0, 3600),
                WholeNumbers.inRange(spec, "--seconds", seconds, 1, 3600), out, distinct(percents), latencyRuns, runs,
                WholeNumbers.inRange(spec, "--window", window, 1, 1 << 20),
                WholeNumbers.inRange(spec, "--demand", demand, 2, 1 << 20),
                WholeNumbers.inRange(spec, "--paced-max-in-flight", pacedMaxInFlight, 1, 1 << 22), server, client,
                heap, List.copyOf(jvmArgs), logs, spec.commandLine().isUsageHelpRequested(), json);
        }

        private static <T> List<T> distinct(List<T> list) {
            return list.stream().distinct().toList();
        }
    }
}
