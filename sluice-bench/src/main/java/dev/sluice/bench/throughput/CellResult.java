package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.Summary;
import java.util.List;

/**
 * What one cell produced: its one-second figures in messages per second, the latency of a paced cell, and either
 * nothing wrong, warnings (e.g. a leak report in a JVM's output) or the failure that stopped it.
 *
 * @param latency null unless the cell was paced and finished
 * @param failure null when the cell ran to the end
 * @param cores   how busy each side was over the measured seconds; null if not measured
 */
record CellResult(Cell cell, List<Long> perSecond, LatencyFigures latency, String failure, List<String> warnings,
                  CoreShares cores) {

    CellResult(Cell cell, List<Long> perSecond, LatencyFigures latency, String failure, List<String> warnings) {
        this(cell, perSecond, latency, failure, warnings, null);
    }

    boolean ok() {
        return failure == null && !perSecond.isEmpty();
    }

    /** @throws IllegalStateException if the cell has no figures */
    Summary summary() {
        if (perSecond.isEmpty()) {
            throw new IllegalStateException("cell " + cell.label() + " has no figures");
        }
        return Summary.of(perSecond);
    }
}
