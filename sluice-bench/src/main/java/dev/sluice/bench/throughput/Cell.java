package dev.sluice.bench.throughput;

/**
 * One measurement: an implementation, an interaction and a payload size, closed loop ({@code rate} 0) or at a
 * fixed offered rate in requests per second.
 */
record Cell(Impl impl, Interaction interaction, int size, long rate) {

    /** A closed-loop (maximum throughput) cell. */
    static Cell max(Impl impl, Interaction interaction, int size) {
        return new Cell(impl, interaction, size, 0);
    }

    boolean paced() {
        return rate > 0;
    }

    /** For progress lines and log names: {@code sluice request-stream 4 B}, plus the rate when paced. */
    String label() {
        return impl.label() + " " + interaction.label() + " " + size + " B" + (paced() ? " at " + rate + "/s" : "");
    }

    String fileStem() {
        return impl.option() + "-" + interaction.option() + "-" + size + (paced() ? "-rate" + rate : "");
    }
}
