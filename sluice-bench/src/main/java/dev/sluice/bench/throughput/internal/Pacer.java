package dev.sluice.bench.throughput.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Offers requests at a fixed rate, open loop: request k is due at {@code start + k / rate} whether or not earlier
 * ones were answered, and carries that due time so that its response time includes any wait for the schedule.
 * When {@code maxInFlight} requests are unanswered the pacer sends nothing more until some are (bounded memory);
 * the requests it then sends keep their original due times, so the latency shows the stall.
 *
 * <p>The first quarter of warm-up runs the sender's closed loop (the JIT then sees the same code at full speed,
 * and no backlog can build up while it compiles); then the pacer stops that loop and takes over, and when
 * measuring starts its schedule starts again ({@link #restart}). It runs as a task on the connection's own event
 * loop every {@link #TICK_MICROS} µs, sending what has come due since (at most {@link #CATCH_UP_FACTOR} ticks'
 * worth): requests then start on the thread that writes them, as in a closed loop, instead of each one hopping
 * across threads (which on one core costs more than the request).
 *
 * <p>Confined to the event loop it is started on.
 */
public final class Pacer {

    /** What a pacer drives. */
    public interface Sender {
        /** Sends one request due at {@code dueNanos} ({@code System.nanoTime} scale). */
        void send(long dueNanos);

        /** Requests sent and not yet answered. */
        int inFlight();

        /** Called after each pacing tick's sends, e.g. to flush them in one write. */
        default void tickDone() {
        }

        /** Stops the warm-up's closed loop: answers no longer send the next request. */
        void stopClosedLoop();
    }

    /** How often the pacing task runs. */
    public static final long TICK_MICROS = 50;

    /**
     * The most a tick sends, in multiples of what falls due per tick: a client that fell behind catches up at up to
     * this many times the offered rate instead of sending its whole backlog at once. A burst of tens of thousands
     * of requests keeps the client busy (and its working set out of cache) long enough for the next backlog to
     * build, and it never caught up. The requests keep their due times, so the latency still counts the wait.
     */
    public static final int CATCH_UP_FACTOR = 4;

    private final double nanosPerRequest;
    private final int maxInFlight;
    private final long maxPerTick;
    private final LongSupplier clock;
    private long start;
    private long sent;

    /**
     * @param ratePerSecond requests per second, &gt; 0
     * @param maxInFlight   unanswered requests beyond which sending pauses, &gt; 0
     * @param clock         nanosecond clock ({@code System::nanoTime}); the schedule starts at its first reading,
     *                      until {@link #start} starts it again
     */
    public Pacer(long ratePerSecond, int maxInFlight, LongSupplier clock) {
        if (ratePerSecond <= 0) {
            throw new IllegalArgumentException("ratePerSecond <= 0: " + ratePerSecond);
        }
        if (maxInFlight <= 0) {
            throw new IllegalArgumentException("maxInFlight <= 0: " + maxInFlight);
        }
        this.nanosPerRequest = 1e9 / ratePerSecond;
        this.maxInFlight = maxInFlight;
        this.maxPerTick = Math.max(CATCH_UP_FACTOR, (long) Math.ceil(CATCH_UP_FACTOR * TICK_MICROS * 1000.0
            / nanosPerRequest));
        this.clock = clock;
        this.start = clock.getAsLong();
    }

    /**
     * Sends what is due at {@code nowNanos}, at most {@link #CATCH_UP_FACTOR} ticks' worth.
     *
     * @return the requests sent by this call
     */
    public long sendDue(Sender sender, long nowNanos) {
        long due = (long) ((nowNanos - start) / nanosPerRequest) + 1;
        long before = sent;
        due = Math.min(due, before + maxPerTick);
        while (sent < due && sender.inFlight() < maxInFlight) {
            sender.send(start + (long) (sent * nanosPerRequest));
            sent++;
        }
        return sent - before;
    }

    /**
     * Starts the schedule again at {@code nowNanos}: requests that fell due before and were not sent yet are never
     * sent. For the start of pacing, and again of measuring, so that a backlog left by warm-up (the JIT
     * recompiling for the paced code can hold a client back for seconds) is not queued in front of the measured
     * requests; requests already in flight are still answered, and a load that cannot keep up still falls behind,
     * measured.
     */
    public void restart(long nowNanos) {
        start = nowNanos;
        sent = 0;
    }

    /**
     * When {@code report} says pacing starts (a quarter of the way through warm-up): stops the sender's closed
     * loop and runs the pacing task on {@code loop} (the connection's event loop) until the JVM exits, the schedule
     * starting then; when it says measuring starts, starts the schedule again ({@link #restart}).
     */
    public void start(Sender sender, ScheduledExecutorService loop, ClientReport report) {
        report.whenPacing(() -> loop.execute(() -> {
            sender.stopClosedLoop();
            restart(clock.getAsLong());
            loop.scheduleAtFixedRate(() -> {
                sendDue(sender, clock.getAsLong());
                sender.tickDone();
            }, 0, TICK_MICROS, TimeUnit.MICROSECONDS);
        }));
        report.whenMeasuring(() -> loop.execute(() -> restart(clock.getAsLong())));
        // A task from another thread wakes the loop through a path a paced loop otherwise never takes (its own
        // timer wakes it): compiled without that path, the loop's whole run method was deoptimised by the restart
        // above and recompiled in the first measured seconds, on the client's one core. Taken every second, the
        // path stays compiled in.
        report.everySecond(() -> loop.execute(NOTHING));
    }

    private static final Runnable NOTHING = () -> { };
}
