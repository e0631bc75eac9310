package dev.sluice.bench.throughput.internal;

import java.util.concurrent.CountDownLatch;

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

    private BenchMain() {
    }

    /** Runs a server main: prints {@code ready <port>} once listening, then serves until killed. No TLS. */
    public static void server(String[] args, Server server) {
        server(args, server, false);
    }

    /** {@link #server(String[], Server)} for a main that also serves {@code --tls}. */
    public static void server(String[] args, Server server, boolean tls) {
        try {
            ChildOptions options = tlsChecked(ChildOptions.parse(args), tls);
            Watchdog.start(options);
            int port = server.start(options);
            System.out.println("ready " + port);
            System.out.flush();
            new CountDownLatch(1).await();
        } catch (Throwable t) {
            exitWith(t);
        }
    }

    /** Runs a client main: the load, then {@link ClientReport#run()}; exits with its status. No TLS. */
    public static void client(String[] args, Client client) {
        client(args, client, false);
    }

    /** {@link #client(String[], Client)} for a main that also connects with {@code --tls}. */
    public static void client(String[] args, Client client, boolean tls) {
        int status;
        try {
            ChildOptions options = tlsChecked(ChildOptions.parse(args), tls);
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

    private static ChildOptions tlsChecked(ChildOptions options, boolean tls) {
        if (options.tls() != null && !tls) {
            throw new IllegalArgumentException("--tls is implemented by the Sluice mains only");
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
