package dev.sluice.bench.throughput.internal;

import dev.sluice.bench.throughput.Interaction;
import java.util.Set;

/**
 * The options every benchmark server and client main takes, as the driver passes them.
 *
 * @param host        address to bind (server) or connect to (client)
 * @param port        TCP port; 0 lets a server pick one (it prints it)
 * @param interaction what the client runs; servers serve every interaction they support, and the raw-Netty
 *                    floor server uses it to pick its mode
 * @param size        payload size in bytes, of requests and answers alike
 * @param window      request-response: requests in flight in a closed loop (a paced client's warm-up too)
 * @param demand      stream and channel: the most elements requested and not yet received (granted in halves);
 *                    fire-and-forget: messages per fenced round (two rounds in flight)
 * @param warmupSeconds  one-second figures printed as {@code warmup} before measuring
 * @param seconds     one-second figures printed as {@code tick}
 * @param rate        0 for a closed loop, else a fixed offered rate in requests per second (request-response)
 * @param maxInFlight paced: unanswered requests beyond which the client sends nothing until answers come back
 * @param parentPid   the driver's pid, or -1: the process exits when that process is gone
 * @param maxSeconds  the process exits after this long whatever happens, or 0 for never
 */
public record ChildOptions(String host, int port, Interaction interaction, int size, int window, int demand,
        int warmupSeconds, int seconds, long rate, int maxInFlight, long parentPid, long maxSeconds) {

    private static final Set<String> NAMES = Set.of("host", "port", "interaction", "size", "window", "demand",
        "warmup", "seconds", "rate", "max-in-flight", "parent-pid", "max-seconds");

    /** The most payload bytes the mains accept: enough for any size the comparison uses, and below one frame. */
    public static final int MAX_SIZE = 1 << 20;

    /** Parses a main's arguments; unknown options fail. */
    public static ChildOptions parse(String[] argv) {
        Args a = Args.parse(argv, NAMES, Set.of());
        ChildOptions o = new ChildOptions(
            a.string("host", "127.0.0.1"),
            a.integer("port", 0, 0, 65535),
            Interaction.parse(a.string("interaction", "stream")),
            a.integer("size", 4, 0, MAX_SIZE),
            a.integer("window", 512, 1, 1 << 20),
            a.integer("demand", 1024, 2, 1 << 20),
            a.integer("warmup", 25, 0, 86_400),
            a.integer("seconds", 20, 1, 86_400),
            a.number("rate", 0, 0, 1_000_000_000L),
            a.integer("max-in-flight", 65_536, 1, 1 << 22),
            a.number("parent-pid", -1, -1, Long.MAX_VALUE),
            a.number("max-seconds", 0, 0, 7 * 86_400));
        if (o.paced() && o.interaction() != Interaction.RESPONSE) {
            throw new IllegalArgumentException("--rate is implemented for --interaction response only, got "
                + o.interaction().option());
        }
        return o;
    }

    /** Whether the client runs at a fixed offered rate rather than a closed loop. */
    public boolean paced() {
        return rate > 0;
    }
}
