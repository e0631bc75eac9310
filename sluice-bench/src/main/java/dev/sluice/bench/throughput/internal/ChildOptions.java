package dev.sluice.bench.throughput.internal;

import dev.sluice.bench.throughput.Interaction;
import dev.sluice.bench.throughput.Transport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every benchmark server and client main takes, as the driver passes them.
 *
 * @param host        address to bind (server) or connect to (client)
 * @param port        TCP port; 0 lets a server pick one (it prints it)
 * @param interaction what the client runs; servers serve every interaction they support, and the raw-Netty
 *                    floor server uses it to pick its mode
 * @param size        payload size in bytes, of requests and answers alike
 * @param metadataSize request-response: metadata bytes on each request (answers carry none), 0 for none; only the
 *                    Sluice client implements it, to measure what a routing entry costs (an RPC call's is 40 bytes)
 * @param window      request-response: requests in flight in a closed loop (a paced client's warm-up too)
 * @param demand      stream and channel: the most elements requested and not yet received (granted in halves);
 *                    fire-and-forget: messages per fenced round (two rounds in flight)
 * @param warmupSeconds  one-second figures printed as {@code warmup} before measuring
 * @param seconds     one-second figures printed as {@code tick}
 * @param rate        0 for a closed loop, else a fixed offered rate in requests per second (request-response)
 * @param maxInFlight paced: unanswered requests beyond which the client sends nothing until answers come back
 * @param parentPid   the driver's pid, or -1: the process exits when that process is gone
 * @param maxSeconds  the process exits after this long whatever happens, or 0 for never
 * @param transport   the wire: {@code --transport tcp} (the default), {@code tls} (which needs {@code --tls DIR};
 *                    {@code --tls DIR} alone means TLS too), {@code unix} (which needs {@code --unix-path FILE}) or
 *                    {@code ws} (WebSocket at {@code /rsocket}); a main refuses one it does not implement (see
 *                    {@link BenchMain#server(String[], BenchMain.Server, java.util.Set)})
 * @param tls         null for plaintext, else a directory with {@code server.pem} and {@code server.key} (PKCS#8) for
 *                    a server and {@code ca.pem} for a client ({@link BenchPki} writes them)
 * @param unixPath    the socket file of {@code --transport unix}, else null; the server binds it, the client connects
 *                    to it, and {@code port} is unused
 */
public record ChildOptions(String host, int port, Interaction interaction, int size, int metadataSize, int window,
        int demand, int warmupSeconds, int seconds, long rate, int maxInFlight, long parentPid, long maxSeconds,
        Transport transport, String tls, String unixPath) {

    /** The most payload bytes the mains accept: enough for any size the comparison uses, and below one frame. */
    public static final int MAX_SIZE = 1 << 20;

    /** The most metadata bytes a request may carry: what one frame's 24-bit metadata length allows. */
    public static final int MAX_METADATA_SIZE = (1 << 24) - 1;

    /**
     * Parses a main's arguments.
     *
     * @throws IllegalArgumentException on an unknown option or a missing or wrong value, naming the option
     */
    public static ChildOptions parse(String[] argv) {
        CommandLine cli = new CommandLine(new Line());
        try {
            cli.parseArgs(argv);
            return ((Line) cli.getCommand()).options();
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Whether the Sluice server and client use WebSocket rather than TCP. */
    public boolean websocket() {
        return transport == Transport.WS;
    }

    /** Whether the client runs at a fixed offered rate rather than a closed loop. */
    public boolean paced() {
        return rate > 0;
    }

    /** The command line as picocli reads it; {@link #options()} checks the ranges and makes the record. */
    @Command(name = "bench-child")
    static final class Line {

        @Option(names = "--host")
        String host = "127.0.0.1";

        @Option(names = "--port", converter = WholeNumbers.Converter.class)
        long port;

        @Option(names = "--interaction")
        String interaction = "stream";

        @Option(names = "--size", converter = WholeNumbers.Converter.class)
        long size = 4;

        @Option(names = "--metadata-size", converter = WholeNumbers.Converter.class)
        long metadataSize;

        @Option(names = "--window", converter = WholeNumbers.Converter.class)
        long window = 512;

        @Option(names = "--demand", converter = WholeNumbers.Converter.class)
        long demand = 1024;

        @Option(names = "--warmup", converter = WholeNumbers.Converter.class)
        long warmup = 25;

        @Option(names = "--seconds", converter = WholeNumbers.Converter.class)
        long seconds = 20;

        @Option(names = "--rate", converter = WholeNumbers.Converter.class)
        long rate;

        @Option(names = "--max-in-flight", converter = WholeNumbers.Converter.class)
        long maxInFlight = 65_536;

        @Option(names = "--parent-pid", converter = WholeNumbers.Converter.class)
        long parentPid = -1;

        @Option(names = "--max-seconds", converter = WholeNumbers.Converter.class)
        long maxSeconds;

        @Option(names = "--transport")
        String transport = "tcp";

        @Option(names = "--tls")
        String tls;

        @Option(names = "--unix-path")
        String unixPath;

        @Spec
        CommandSpec spec;

        ChildOptions options() {
            Interaction i;
            Transport t;
            try {
                i = Interaction.parse(interaction);
                t = Transport.parse(transport);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (tls != null && t == Transport.TCP) {
                t = Transport.TLS; // --tls DIR alone, as the mains took it before --transport tls existed
            }
            if (tls != null && t != Transport.TLS) {
                throw new ParameterException(spec.commandLine(), "--tls runs over TCP only (--transport tcp or"
                    + " tls), got '" + transport + "'");
            }
            if (t == Transport.TLS && tls == null) {
                throw new ParameterException(spec.commandLine(), "--transport tls needs --tls DIR");
            }
            if ((t == Transport.UNIX) != (unixPath != null)) {
                throw new ParameterException(spec.commandLine(), t == Transport.UNIX
                    ? "--transport unix needs --unix-path FILE"
                    : "--unix-path needs --transport unix, got '" + transport + "'");
            }
            ChildOptions o = new ChildOptions(host, WholeNumbers.inRange(spec, "--port", port, 0, 65535), i,
                WholeNumbers.inRange(spec, "--size", size, 0, MAX_SIZE),
                WholeNumbers.inRange(spec, "--metadata-size", metadataSize, 0, MAX_METADATA_SIZE),
                WholeNumbers.inRange(spec, "--window", window, 1, 1 << 20),
                WholeNumbers.inRange(spec, "--demand", demand, 2, 1 << 20),
                WholeNumbers.inRange(spec, "--warmup", warmup, 0, 86_400),
                WholeNumbers.inRange(spec, "--seconds", seconds, 1, 86_400),
                WholeNumbers.longInRange(spec, "--rate", rate, 0, 1_000_000_000L),
                WholeNumbers.inRange(spec, "--max-in-flight", maxInFlight, 1, 1 << 22),
                WholeNumbers.longInRange(spec, "--parent-pid", parentPid, -1, Long.MAX_VALUE),
                WholeNumbers.longInRange(spec, "--max-seconds", maxSeconds, 0, 7 * 86_400), t, tls, unixPath);
            if (o.paced() && o.interaction() != Interaction.RESPONSE) {
                throw new ParameterException(spec.commandLine(), "--rate is implemented for --interaction response"
                    + " only, got " + o.interaction().option());
            }
            if (o.metadataSize() > 0 && o.interaction() != Interaction.RESPONSE) {
                throw new ParameterException(spec.commandLine(), "--metadata-size is implemented for --interaction"
                    + " response only, got " + o.interaction().option());
            }
            return o;
        }
    }
}
