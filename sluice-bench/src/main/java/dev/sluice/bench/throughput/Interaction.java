package dev.sluice.bench.throughput;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The interactions a throughput cell measures, named as on the command line.
 *
 * <ul>
 *   <li>{@link #STREAM}: one infinite request-stream; the client grants demand in batches within a bounded window
 *       and counts the elements it receives.</li>
 *   <li>{@link #RESPONSE}: request-response with a continuous window of requests in flight; each answer sends the
 *       next request. The count is answers received.</li>
 *   <li>{@link #CHANNEL}: one infinite request-channel; the server echoes every element it receives, the client
 *       counts the echoes (so each counted message crossed the wire twice).</li>
 *   <li>{@link #FNF}: fire-and-forget, in rounds closed by a request-response fence; the count is the
 *       fire-and-forgets the server has handled, which the fence's answer proves (a connection is ordered).</li>
 * </ul>
 */
public enum Interaction {
    STREAM("stream", "request-stream"),
    RESPONSE("response", "request-response"),
    CHANNEL("channel", "request-channel"),
    FNF("fnf", "fire-and-forget");

    private final String option;
    private final String label;

    Interaction(String option, String label) {
        this.option = option;
        this.label = label;
    }

    /** The name used on command lines ({@code --interaction stream}). */
    public String option() {
        return option;
    }

    /** The protocol's name for it, for reports. */
    public String label() {
        return label;
    }

    /** The interaction named {@code option} on a command line. */
    public static Interaction parse(String option) {
        for (Interaction i : values()) {
            if (i.option.equals(option)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown interaction '" + option + "': expected one of "
            + Arrays.stream(values()).map(Interaction::option).collect(Collectors.joining(", ")));
    }
}
