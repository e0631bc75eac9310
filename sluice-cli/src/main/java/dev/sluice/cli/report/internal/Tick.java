package dev.sluice.cli.report.internal;

/**
 * One tick of an axis.
 *
 * @param value where it is, in the axis' data unit
 * @param label what it says; empty for a minor tick, which only draws a faint grid line
 */
public record Tick(double value, String label) {

    /** Whether the tick has a label (a major tick). */
    public boolean major() {
        return !label.isEmpty();
    }
}
