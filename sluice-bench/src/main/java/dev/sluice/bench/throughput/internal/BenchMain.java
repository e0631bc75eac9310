package dev.sluice.bench.throughput.internal;

import dev.sluice.bench.throughput.Transport;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The frame every benchmark server and client main runs in: parse {@link ChildOptions}, start the
 * {@link Watchdog}, start the load, talk to the driver on standard output, and turn any failure into an
 * {@code error} line and a non-zero exit status.
 */
public final class BenchMain {

    /** Starts a server. */
    @FunctionalInterface
    public interface Server {
        /** Binds and starts serving; returns the bound port. */
        int start(ChildOptions options) throws Exception;
    }

    /** Starts a client's load. */
    @FunctionalInterface
    public interface Client {
        /**
         * Connects and starts the load, counting into {@code meter}, recording into {@code latency} when paced (it
         * is null otherwise) and reporting failures to {@code report}; returns once the load runs by itself.
         */
        void start(ChildOptions options, Meter meter, Latency latency, ClientReport report) throws Exception;
    }

    /**
     * The keep-alive interval of the benchmark's RSocket clients (Sluice's, its RPC client's, rsocket-java's): one
     * second rather than the default 20. The first KEEPALIVE a connection handles takes branches its frame path never
     * took before, and each side's compiler then recompiles that path, on the core the side runs on; at 20 s that
     * fell at the end of a 25-second warm-up and the recompiling went on into the measured seconds. At one second
     * it happens while the closed loop warms up. Two frames a second cost nothing measurable.
     */
    public static final Duration KEEP_ALIVE_INTERVAL = Duration.ofSeconds(1);
    /** The keep-alive max lifetime of the benchmark's RSocket clients: the default. */
    public static final Duration KEEP_ALIVE_MAX_LIFETIME = Duration.ofSeconds(90);

    private BenchMain() {
    }

    /** Runs a server main over plaintext TCP only; see {@link #server(String[], Server, Set)}. */
    public static void server(String[] args, Server server) {
        server(args, server, EnumSet.of(Transport.TCP));
    }

    /**
     * Runs a server main that implements {@code transports}: prints {@code ready <port>} once listening ({@code 0}
     * on a Unix socket, whose path the driver chose), then serves until killed.
     */
    public static void server(String[] args, Server server, Set<Transport> transports) {
        try {
            ChildOptions options = metadataChecked(transportChecked(ChildOptions.parse(args), transports), false);
            Watchdog.start(options);
            int port = server.start(options);
            System.out.println("ready " + Math.max(port, 0));
            System.out.flush();
            new CountDownLatch(1).await();
        } catch (Throwable t) {
            exitWith(t);
        }
    }

    /** Runs a client main over plaintext TCP only; see {@link #client(String[], Client, Set)}. */
    public static void client(String[] args, Client client) {
        client(args, client, EnumSet.of(Transport.TCP));
    }

    /**
     * Runs a client main that implements {@code transports}: the load, then {@link ClientReport#run()}; exits with
     * its status.
     */
    public static void client(String[] args, Client client, Set<Transport> transports) {
        client(args, client, transports, false);
    }

    /**
     * {@link #client(String[], Client, Set)} for a client that also sends {@code --metadata-size} bytes of metadata
     * on each request when asked ({@code sendsMetadata}); any other main refuses that option.
     */
    public static void client(String[] args, Client client, Set<Transport> transports, boolean sendsMetadata) {
        int status;
        try {
            ChildOptions options = metadataChecked(transportChecked(ChildOptions.parse(args), transports),
                sendsMetadata);
            Watchdog.start(options);
            Meter meter = new Meter();
            Latency latency = options.paced() ? new Latency() : null;
            ClientReport report = ClientReport.standard(options, meter, latency);
            client.start(options, meter, latency, report);
            status = report.run();
        } catch (Throwable t) {
            exitWith(t);
            return;
        }
        System.exit(status);
    }

    static ChildOptions metadataChecked(ChildOptions options, boolean sendsMetadata) {
        if (options.metadataSize() > 0 && !sendsMetadata) {
            throw new IllegalArgumentException("--metadata-size is implemented by the Sluice client only");
        }
        return options;
    }

    private static ChildOptions transportChecked(ChildOptions options, Set<Transport> transports) {
        if (!transports.contains(options.transport())) {
            throw new IllegalArgumentException("--transport " + options.transport().option() + " is not offered"
                + " by this main (it runs " + transports.stream().map(Transport::option)
                    .collect(Collectors.joining(", ")) + ")");
        }
        return options;
    }

    /** The error every main reports for an interaction it does not implement. */
    public static IllegalArgumentException unsupported(String impl, ChildOptions options) {
        return new IllegalArgumentException(impl + " does not implement --interaction "
            + options.interaction().option());
    }

    private static void exitWith(Throwable t) {
        t.printStackTrace();
        System.out.println("error " + String.valueOf(t).replace('\n', ' '));
        System.out.flush();
        System.exit(2);
    }
}
