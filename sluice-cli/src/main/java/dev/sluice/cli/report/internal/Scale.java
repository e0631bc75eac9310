package dev.sluice.cli.report.internal;

import java.util.List;

/** A vertical axis: maps a data value to a y pixel of the plot area, and says where its ticks go. Immutable. */
public interface Scale {

    /** The y pixel of {@code value}; values outside the axis' range are clamped to its ends. */
    double pixel(double value);

    /** The ticks, from the bottom up. */
    List<Tick> ticks();
}
