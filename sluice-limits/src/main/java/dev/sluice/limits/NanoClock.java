package dev.sluice.limits;

/**
 * A source of time in nanoseconds, such as {@link System#nanoTime()}: only differences between its readings mean
 * anything. The limiters read it in their convenience methods; tests pass a virtual clock instead.
 *
 * <p>Implementations must be thread-safe and should not go backwards; the limiters tolerate it (time going back
 * accumulates no tokens) but then may grant more than the rate.
 */
@FunctionalInterface
public interface NanoClock {

    /** {@link System#nanoTime()}. */
    NanoClock SYSTEM = System::nanoTime;

    /** The current time in nanoseconds. */
    long nanoTime();
}
