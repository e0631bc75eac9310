package dev.sluice.bench.throughput.internal;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The client's side of the conversation with the driver: once a second, the messages handled in that second, then
 * the latency percentiles of a paced run, then {@code done}. The lines, on standard output:
 *
 * <pre>
 * warmup &lt;i&gt; &lt;msgs/s&gt; [p99=..]   one per warm-up second, i from 1
 * tick &lt;i&gt; &lt;msgs/s&gt; [p99=..]     one per measured second, i from 1
 * latency count=.. p50=.. p99=.. p999=.. max=..   (paced runs; microseconds)
 * done
 * error &lt;message&gt;          instead of the rest, when the load failed (the stack trace goes to stderr)
 * </pre>
 *
 * <p>Each figure is the count difference over the measured elapsed time of that second, not an assumed one. A
 * paced second's line also carries the p99 of the answers recorded in it (once any are), so a reader sees when the
 * latency settles; the {@code latency} line sums the measured seconds'. The load itself runs on other threads;
 * {@link #fail} may be called from any of them.
 */
public final class ClientReport {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final ChildOptions options;
    private final Meter meter;
    private final Latency latency;
    private final PrintStream out;
    private final LongSupplier clock;
    private volatile Throwable failure;
    private volatile Runnable whenPacing = () -> { };
    private volatile Runnable whenMeasuring = () -> { };
    private volatile Runnable everySecond = () -> { };

    /**
     * @param latency where a paced load records response times, or null for a closed loop
     * @param clock   nanosecond clock ({@code System::nanoTime})
     */
    public ClientReport(ChildOptions options, Meter meter, Latency latency, PrintStream out, LongSupplier clock) {
        this.options = options;
        this.meter = meter;
        this.latency = latency;
        this.out = out;
        this.clock = clock;
    }

    /** The standard report: stdout, {@code System.nanoTime}. */
    public static ClientReport standard(ChildOptions options, Meter meter, Latency latency) {
        return new ClientReport(options, meter, latency, System.out, System::nanoTime);
    }

    /** Records the first failure of the load; the report stops at its next second. */
    public void fail(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    /**
     * Runs {@code task} (once, on the reporting thread) when a paced load is to take over from the closed loop:
     * a quarter of the way through warm-up, so that the JIT settles on the paced code before measuring starts
     * (switching at the start of measuring cost a second of slow code and a backlog that lasted the whole
     * measurement; switching halfway left too little: recompiling for the paced code took half of a Sluice client's
     * core for four seconds at 140 B); at once with fewer than four seconds of warm-up.
     */
    public void whenPacing(Runnable task) {
        whenPacing = task;
    }

    /**
     * Runs {@code task} (once, on the reporting thread) when measuring starts, right after the latency recorder
     * starts counting; at once without warm-up.
     */
    public void whenMeasuring(Runnable task) {
        whenMeasuring = task;
    }

    /** Runs {@code task} on the reporting thread once a second, after that second's line, warm-up included. */
    public void everySecond(Runnable task) {
        everySecond = task;
    }

    /** The first failure recorded, or null. */
    public Throwable failure() {
        return failure;
    }

    /**
     * Prints warm-up and measured figures, one per second, then the latency line if paced, then {@code done}.
     * Blocks for the whole run.
     *
     * @return the process exit status: 0, or 1 if the load failed
     */
    public int run() {
        long start = clock.getAsLong();
        long last = start;
        long lastCount = meter.total();
        int total = options.warmupSeconds() + options.seconds();
        int closedLoopSeconds = options.warmupSeconds() / 4;
        Histogram measured = latency != null ? Latency.newHistogram() : null;
        if (closedLoopSeconds == 0) {
            whenPacing.run();
        }
        if (options.warmupSeconds() == 0) {
            startMeasuring(start);
        }
        // One builder for every line, appended to rather than concatenated: a string concatenation site is linked
        // (bytecode spun, classes loaded) the first time it runs, and the first measured second would run new ones.
        StringBuilder line = new StringBuilder(64);
        for (int i = 1; i <= total; i++) {
            long due = start + i * SECOND;
            for (long wait = due - clock.getAsLong(); wait > 0; wait = due - clock.getAsLong()) {
                LockSupport.parkNanos(wait);
            }
            long now = clock.getAsLong();
            long count = meter.total();
            Throwable t = failure;
            if (t != null) {
                return failed(t);
            }
            long perSecond = Math.round((count - lastCount) * (double) SECOND / Math.max(1, now - last));
            boolean warm = i <= options.warmupSeconds();
            line.setLength(0);
            line.append(warm ? "warmup " : "tick ").append(warm ? i : i - options.warmupSeconds()).append(' ')
                .append(perSecond);
            if (latency != null) {
                // Taken every second, warm-up included, so that the measured seconds' fresh histograms are nothing
                // new: the first answers into a fresh one take branches a steady load no longer takes, which C2
                // compiles as traps, and met first at the start of measuring they deoptimised the client's whole
                // answer path (and set off recompiling and a backlog) inside the measured seconds. Summed every
                // second too, into a histogram replaced when measuring starts, for the same reason: summed only
                // from then on, the merge was compiled four times over in the first measured seconds, by a compiler
                // thread that shares the client's core.
                Histogram second = latency.snapshot();
                measured.add(second);
                if (second.getTotalCount() > 0) {
                    Latency.appendP99(line.append(' '), second);
                }
            }
            out.println(line);
            out.flush();
            everySecond.run();
            if (warm && i == closedLoopSeconds) {
                whenPacing.run();
            }
            if (warm && i == options.warmupSeconds()) {
                startMeasuring(now);
                measured = latency != null ? Latency.newHistogram() : null;
            }
            last = now;
            lastCount = count;
        }
        if (latency != null) {
            out.println(Latency.line(measured));
        }
        out.println("done");
        out.flush();
        return 0;
    }

    private void startMeasuring(long now) {
        if (latency != null) {
            latency.startMeasuring(now);
        }
        whenMeasuring.run();
    }

    private int failed(Throwable t) {
        t.printStackTrace();
        out.println("error " + String.valueOf(t).replace('\n', ' '));
        out.flush();
        return 1;
    }
}
