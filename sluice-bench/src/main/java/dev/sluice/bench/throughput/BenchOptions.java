package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.Args;
import dev.sluice.bench.throughput.internal.ChildOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The driver's options; see {@link #USAGE}.
 *
 * @param latencyPercents offered rates of the latency runs, in percent of each cell's measured maximum; empty when
 *                        {@code --latency} is off
 */
record BenchOptions(List<Impl> impls, List<Interaction> interactions, List<Integer> sizes, int warmupSeconds,
        int seconds, Path out, List<Integer> latencyPercents, int window, int demand, int pacedMaxInFlight,
        int serverCpu, int clientCpu, String heap, List<String> jvmArgs, Path logs, boolean help) {

    static final String USAGE = """
        Usage: bin/sluice bench [options]
           (or java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.throughput.Bench [options])

        Runs every selected cell {implementation} x {interaction} x {payload size}: a server JVM pinned to one core
        and a client JVM pinned to the other (taskset, -XX:ActiveProcessorCount=1), a warm-up, then one throughput
        figure per second; prints the median and min-max per cell and Sluice's ratios to each peer, and writes
        them to a Markdown file.

          --impl LIST          sluice,rsocket-java,grpc-java,netty-floor (default: all)
          --interaction LIST   stream,response,channel,fnf (default: all; grpc-java and the floor do stream and
                               response only)
          --size LIST          payload sizes in bytes (default: 4,140)
          --warmup S           warm-up seconds per cell (default: 25)
          --seconds N          measured one-second figures per cell (default: 20)
          --out FILE           Markdown report, its throughput (and latency) section replaced (default:
                               docs/benchmarks.md)
          --latency            also run request-response at fixed offered rates and report p50/p99/p99.9
          --latency-rates LIST offered rates in percent of each cell's measured median (default: 50,90)
          --window N           request-response requests in flight (default: 512)
          --demand N           stream/channel demand window, fire-and-forget round (default: 1024)
          --paced-max-in-flight N  unanswered requests before a paced client waits (default: 65536)
          --server-cpu N       core for the server JVMs (default: 0)
          --client-cpu N       core for the client JVMs (default: 1)
          --heap SIZE          -Xms and -Xmx of every JVM (default: 1g)
          --jvm-arg ARG        an extra JVM option for every server and client (repeatable)
          --logs DIR           where each JVM's output goes (default: a new temporary directory)
          --help               this text
        """;

    private static final Set<String> WITH_VALUE = Set.of("impl", "interaction", "size", "warmup", "seconds", "out",
        "latency-rates", "window", "demand", "paced-max-in-flight", "server-cpu", "client-cpu", "heap", "jvm-arg",
        "logs");

    static BenchOptions parse(String[] argv) {
        Args a = Args.parse(argv, WITH_VALUE, Set.of("latency", "help"));
        List<Impl> impls = new ArrayList<>();
        for (String s : a.list("impl", List.of("sluice", "rsocket-java", "grpc-java", "netty-floor"))) {
            impls.add(Impl.parse(s));
        }
        List<Interaction> interactions = new ArrayList<>();
        for (String s : a.list("interaction", List.of("stream", "response", "channel", "fnf"))) {
            interactions.add(Interaction.parse(s));
        }
        List<Integer> sizes = new ArrayList<>();
        for (String s : a.list("size", List.of("4", "140"))) {
            sizes.add(parseInt("size", s, 0, ChildOptions.MAX_SIZE));
        }
        List<Integer> percents = new ArrayList<>();
        if (a.has("latency")) {
            for (String s : a.list("latency-rates", List.of("50", "90"))) {
                percents.add(parseInt("latency-rates", s, 1, 100));
            }
        } else if (a.has("latency-rates")) {
            throw new IllegalArgumentException("--latency-rates needs --latency");
        }
        int serverCpu = a.integer("server-cpu", 0, 0, 4095);
        int clientCpu = a.integer("client-cpu", 1, 0, 4095);
        if (serverCpu == clientCpu) {
            throw new IllegalArgumentException("--server-cpu and --client-cpu must differ, both are " + serverCpu);
        }
        String heap = a.string("heap", "1g");
        if (!heap.matches("[0-9]+[kKmMgG]?")) {
            throw new IllegalArgumentException("--heap must look like 1g or 512m, got '" + heap + "'");
        }
        String logs = a.string("logs", null);
        return new BenchOptions(distinct(impls), distinct(interactions), distinct(sizes),
            a.integer("warmup", 25, 0, 3600), a.integer("seconds", 20, 1, 3600),
            Path.of(a.string("out", "docs/benchmarks.md")), distinct(percents),
            a.integer("window", 512, 1, 1 << 20), a.integer("demand", 1024, 2, 1 << 20),
            a.integer("paced-max-in-flight", 65_536, 1, 1 << 22), serverCpu, clientCpu, heap, a.all("jvm-arg"),
            logs == null ? null : Path.of(logs), a.has("help"));
    }

    private static int parseInt(String option, String s, int min, int max) {
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " takes whole numbers, got '" + s + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("--" + option + " values must be in [" + min + ", " + max + "], got "
                + n);
        }
        return n;
    }

    private static <T> List<T> distinct(List<T> list) {
        return list.stream().distinct().toList();
    }
}
