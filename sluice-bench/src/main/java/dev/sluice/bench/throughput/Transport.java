package dev.sluice.bench.throughput;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The wires a throughput cell runs over, named as on the command line: plaintext TCP (the comparison's baseline), TLS
 * on TCP, a Unix domain socket and WebSocket. Every cell runs over loopback (or a socket file) between two JVMs on
 * one machine.
 */
public enum Transport {
    TCP("tcp", "TCP"),
    TLS("tls", "TLS"),
    UNIX("unix", "Unix socket"),
    WS("ws", "WebSocket");

    private final String option;
    private final String label;

    Transport(String option, String label) {
        this.option = option;
        this.label = label;
    }

    /** The name used on command lines ({@code --transport tls}). */
    public String option() {
        return option;
    }

    /** The name for reports. */
    public String label() {
        return label;
    }

    /** The transport named {@code option} on a command line. */
    public static Transport parse(String option) {
        for (Transport t : values()) {
            if (t.option.equals(option)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + option + "': expected one of "
            + Arrays.stream(values()).map(Transport::option).collect(Collectors.joining(", ")));
    }
}
