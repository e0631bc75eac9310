package dev.sluice.bench.throughput;

/**
 * One measurement: an implementation, an interaction and a payload size over a transport, closed loop ({@code rate}
 * 0) or at a fixed offered rate in requests per second.
 */
record Cell(Impl impl, Interaction interaction, int size, long rate, Transport transport) {

    /** A closed-loop (maximum throughput) cell over plaintext TCP. */
    static Cell max(Impl impl, Interaction interaction, int size) {
        return max(impl, interaction, size, Transport.TCP);
    }

    /** A closed-loop (maximum throughput) cell over {@code transport}. */
    static Cell max(Impl impl, Interaction interaction, int size, Transport transport) {
        return new Cell(impl, interaction, size, 0, transport);
    }

    boolean paced() {
        return rate > 0;
    }

    /**
     * For progress lines and log names: {@code Sluice request-stream 4 B}, then the rate when paced, then the
     * transport unless it is plaintext TCP ({@code over TLS}).
     */
    String label() {
        return impl.label() + " " + interaction.label() + " " + size + " B" + (paced() ? " at " + rate + "/s" : "")
            + (transport == Transport.TCP ? "" : " over " + transport.label());
    }

    /** The cell's log file names; a plaintext TCP cell's are those the driver used before transports. */
    String fileStem() {
        return impl.option() + "-" + interaction.option() + "-" + size + (paced() ? "-rate" + rate : "")
            + (transport == Transport.TCP ? "" : "-" + transport.option());
    }
}
