package dev.sluice.cli.files.internal;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * Shows a transfer's {@link TransferMeter} in a terminal: every {@link #TICK} it redraws the
 * {@link ProgressLine progress line} in place (carriage return, no newline). Not interactive, it draws nothing;
 * either way the caller prints the final line after {@link #close()}, which wipes the bar.
 *
 * <p>Thread-safe: ticks run on the scheduler, serialized with {@link #close()}.
 */
public final class ProgressDisplay implements AutoCloseable {

    /** How often the bar is redrawn. */
    public static final Duration TICK = Duration.ofMillis(200);

    private final PrintWriter out;
    private final LongSupplier nanoClock;
    private final TransferMeter meter;
    private final Disposable ticker;
    private int drawnLength;
    private boolean closed;

    private ProgressDisplay(PrintWriter out, boolean interactive, LongSupplier nanoClock, Scheduler scheduler) {
        this.out = Objects.requireNonNull(out, "out");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.meter = new TransferMeter(nanoClock.getAsLong());
        this.ticker = interactive ? Flux.interval(TICK, TICK, scheduler).subscribe(t -> tick()) : null;
    }

    /**
     * Starts measuring now, and drawing if {@code interactive} (a terminal).
     *
     * @param scheduler runs the ticks (e.g. {@code Schedulers.parallel()})
     */
    public static ProgressDisplay start(PrintWriter out, boolean interactive, LongSupplier nanoClock,
                                        Scheduler scheduler) {
        return new ProgressDisplay(out, interactive, nanoClock, scheduler);
    }

    /** The meter to count bytes into. */
    public TransferMeter meter() {
        return meter;
    }

    /** Nanoseconds since the start. */
    public long elapsedNanos() {
        return meter.elapsedNanos(nanoClock.getAsLong());
    }

    /** Samples the meter and redraws the bar over the previous one. */
    synchronized void tick() {
        if (closed) {
            return;
        }
        long now = nanoClock.getAsLong();
        meter.sample(now);
        String line = ProgressLine.render(meter, now);
        // Pad with spaces over what a longer previous line left on screen.
        out.print('\r' + line + " ".repeat(Math.max(0, drawnLength - line.length())));
        out.flush();
        drawnLength = line.length();
    }

    /** Stops drawing and wipes the bar, leaving the cursor at the start of an empty line. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ticker != null) {
            ticker.dispose();
        }
        if (drawnLength > 0) {
            out.print('\r' + " ".repeat(drawnLength) + '\r');
            out.flush();
        }
    }
}
