package dev.sluice.cli.load;

import dev.sluice.cli.load.internal.RampRequest;
import dev.sluice.cli.load.internal.RampSchedule;
import dev.sluice.cli.load.internal.StepTally;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * An open-loop request-response client that offers a {@link Ramp} of load — a staircase of rates — with a timeout
 * per request, and reports what became of each step's requests: successes, rejections, timeouts and failures, with
 * their latencies.
 *
 * <p><b>Open loop</b>, as {@link LoadGenerator}: request {@code i} has an intended send time given by the ramp, a
 * dedicated sender fires it then whatever the answers do, and every latency counts from that time (no coordinated
 * omission).
 *
 * <p><b>The timeout is the requester's</b>: a request not answered within {@link #timeout} of its intended send time
 * counts as timed out, and is cancelled (RSocket sends CANCEL, so a responder that honours it drops the work). It is
 * measured from the intended time, so time spent behind a stalled sender counts against it too. Timeouts are kept
 * in send order, and so in deadline order, in one queue that the thread calling {@link #run()} watches: no timer
 * per request.
 *
 * <p><b>Steps.</b> A request counts in the step in which it was due, whenever its outcome comes. A step is reported
 * — to {@link #onStep}, on the thread running {@link #run()} — once the sender is past it and each of its requests
 * is settled, which is at most the timeout after its end. Every request sent has exactly one outcome.
 *
 * <pre>{@code
 * RampSummary s = RampGenerator.create(connection).ramp(new Ramp(100, 600, 50, Duration.ofSeconds(5)))
 *     .timeout(Duration.ofMillis(500)).onStep(step -> System.out.println(step)).run();
 * }</pre>
 *
 * <p>Thread-safety: configure it from one thread, then call {@link #run()} once; {@link #stop()} may be called from
 * any thread.
 */
public final class RampGenerator {

    /** How long the closer sleeps at most while nothing is outstanding; it is woken when something is. */
    private static final long IDLE_PARK_NANOS = 100_000_000L;

    private final RSocket target;
    private final LongSupplier nanoClock = System::nanoTime;
    private Ramp ramp = new Ramp(100, 1000, 100, Duration.ofSeconds(5));
    private Duration timeout = Duration.ofSeconds(1);
    private int payloadSize = 16;
    private Consumer<StepStats> listener = s -> { };

    private final AtomicBoolean started = new AtomicBoolean();
    private final Queue<RampRequest> outstanding = new ConcurrentLinkedQueue<>();
    private final RampRequest.Listener onSettled = this::settled;
    private volatile boolean stopped;
    private volatile boolean senderDone;
    /** Requests fired so far: the sender is past every step whose last index is below it. */
    private volatile long fired;
    /** When the sender stopped, ns; written before {@code senderDone}. */
    private volatile long sendEnd;
    private volatile Thread sender;
    private volatile Thread closer;
    // Set up by run() before the sender starts.
    private RampSchedule schedule;
    private StepTally[] tallies;
    // Written by the sender, read by the closer after joining it.
    private long maxLagNanos;
    private Throwable senderFailure;
    // Closer-confined.
    private boolean interrupted;
    private RuntimeException listenerFailure;

    private RampGenerator(RSocket target) {
        this.target = target;
    }

    /** A generator sending to {@code target}: by default 100 to 1000 requests/s by 100, 5 s each, timeout 1 s. */
    public static RampGenerator create(RSocket target) {
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
        return new RampGenerator(target);
    }

    /** The load to offer. */
    public RampGenerator ramp(Ramp plan) {
        if (plan == null) {
            throw new IllegalArgumentException("ramp must not be null");
        }
        this.ramp = plan;
        return this;
    }

    /**
     * How long a request may take, from its intended send time, before it counts as timed out and is cancelled
     * (default 1 s); also how long the run waits after the last send.
     */
    public RampGenerator timeout(Duration requestTimeout) {
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()
            || requestTimeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be > 0 and < 2^31 s, got " + requestTimeout);
        }
        this.timeout = requestTimeout;
        return this;
    }

    /** Bytes of data in each request, 0 to {@link LoadGenerator#MAX_PAYLOAD_SIZE} (default 16). */
    public RampGenerator payloadSize(int bytes) {
        if (bytes < 0 || bytes > LoadGenerator.MAX_PAYLOAD_SIZE) {
            throw new IllegalArgumentException("payload size must be between 0 and " + LoadGenerator.MAX_PAYLOAD_SIZE
                + " bytes, got " + bytes);
        }
        this.payloadSize = bytes;
        return this;
    }

    /** Called with each step's figures as soon as they are final, in order, on the thread running {@link #run()}. */
    public RampGenerator onStep(Consumer<StepStats> stepListener) {
        if (stepListener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        this.listener = stepListener;
        return this;
    }

    /** Stops sending now; the requests sent still get their outcome. Safe from any thread. */
    public void stop() {
        stopped = true;
        LockSupport.unpark(sender);
    }

    /**
     * Runs the ramp: starts the sender, expires requests at their timeout, reports each step, and returns the summary
     * once every request sent has its outcome (at most the timeout after the last send). If this thread is
     * interrupted, sending stops, the run finishes as usual and the interrupt flag is set again on return.
     *
     * @throws IllegalStateException if called twice, or if the sender failed
     * @throws RuntimeException what the listener threw (the run is stopped and its requests settled first)
     */
    public RampSummary run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("a RampGenerator runs once; create another");
        }
        byte[] data = new byte[payloadSize];
        Arrays.fill(data, (byte) 'x');
        long start = nanoClock.getAsLong();
        schedule = RampSchedule.of(start, ramp);
        tallies = new StepTally[schedule.steps()];
        for (int s = 0; s < tallies.length; s++) {
            tallies[s] = new StepTally();
        }
        closer = Thread.currentThread();
        Thread t = new Thread(() -> send(data), "sluice-ramp-sender");
        t.setDaemon(true);
        sender = t;
        t.start();

        List<StepStats> steps = closeSteps(start);
        joinSender(t);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (senderFailure != null) {
            throw new IllegalStateException("the ramp sender failed: " + senderFailure, senderFailure);
        }
        if (listenerFailure != null) {
            throw listenerFailure;
        }
        Histogram success = new Histogram(3);
        Histogram failure = new Histogram(3);
        Histogram rejection = new Histogram(3);
        for (int s = 0; s < steps.size(); s++) {
            tallies[s].addTo(success, failure, rejection);
        }
        return new RampSummary(ramp, timeout, steps, Latency.of(success), Latency.of(failure), Latency.of(rejection),
            maxLagNanos / 1000, fired < schedule.total());
    }

    /**
     * The closer's loop: expires requests as their deadlines pass and closes steps in order once settled, until
     * every step that sent is closed. Ends because every request settles by its deadline, which the loop enforces.
     */
    private List<StepStats> closeSteps(long start) {
        List<StepStats> steps = new ArrayList<>();
        int next = 0;
        while (true) {
            long now = nanoClock.getAsLong();
            RampRequest head;
            while ((head = outstanding.peek()) != null) {
                if (head.isSettled()) {
                    outstanding.poll();
                } else if (now - head.deadlineNanos() >= 0) {
                    outstanding.poll();
                    head.expire();
                } else {
                    break;
                }
            }
            while (next < tallies.length && closable(next)) {
                if (tallies[next].sentCount() > 0) {
                    StepStats stats = tallies[next].stats(next, ramp.rate(next), sentDuration(start, next));
                    steps.add(stats);
                    deliver(stats);
                }
                next++;
            }
            if (next == tallies.length) {
                return steps;
            }
            long wait = head != null ? head.deadlineNanos() - now : IDLE_PARK_NANOS;
            LockSupport.parkNanos(this, Math.min(wait, IDLE_PARK_NANOS));
            if (Thread.interrupted()) {
                interrupted = true;
                stop();
            }
        }
    }

    /** Whether the sender is past step {@code s} and each of its requests is settled. */
    private boolean closable(int s) {
        boolean sendingOver = senderDone || fired >= schedule.firstIndex(s + 1);
        return sendingOver && tallies[s].settled() == tallies[s].sentCount();
    }

    /** How long step {@code s} sent: all of it, or up to the stop. */
    private Duration sentDuration(long start, int s) {
        long planned = ramp.stepDuration().toNanos();
        if (fired >= schedule.firstIndex(s + 1)) {
            return Duration.ofNanos(planned);
        }
        long stepStart = start + s * planned;
        return Duration.ofNanos(Math.max(0, Math.min(planned, sendEnd - stepStart)));
    }

    /** Called once per request, on the thread that settled it: wakes the closer when that completes a step. */
    private void settled(int step, long settledInStep) {
        if (settledInStep == tallies[step].sentCount() && (senderDone || fired >= schedule.firstIndex(step + 1))) {
            LockSupport.unpark(closer);
        }
    }

    private void deliver(StepStats step) {
        if (listenerFailure != null) {
            return;
        }
        try {
            listener.accept(step);
        } catch (RuntimeException e) {
            listenerFailure = e;
            stop();
        }
    }

    /** The sender thread: fires every due request, parks until the next one is due. */
    private void send(byte[] data) {
        long next = 0;
        long total = schedule.total();
        long timeoutNanos = timeout.toNanos();
        int step = 0;
        try {
            while (next < total && !stopped) {
                long now = nanoClock.getAsLong();
                long due = schedule.dueCount(now);
                if (next >= due) {
                    LockSupport.parkNanos(this, schedule.intendedNanos(next) - now);
                    continue;
                }
                for (; next < due && !stopped; next++) {
                    while (next >= schedule.firstIndex(step + 1)) {
                        step++;
                    }
                    long intended = schedule.intendedNanos(next);
                    fire(step, intended, intended + timeoutNanos, data);
                    fired = next + 1;
                    long sentAt = nanoClock.getAsLong();
                    maxLagNanos = Math.max(maxLagNanos, sentAt - intended);
                }
            }
        } catch (Throwable e) {
            senderFailure = e;
        } finally {
            sendEnd = nanoClock.getAsLong();
            senderDone = true;
            LockSupport.unpark(closer);
        }
    }

    private void fire(int step, long intendedNanos, long deadlineNanos, byte[] data) {
        StepTally tally = tallies[step];
        RampRequest request = new RampRequest(tally, step, intendedNanos, deadlineNanos, nanoClock, onSettled);
        tally.sent();
        // Queued before it can settle, so that the closer always sees it; the closer is woken if it was idle.
        boolean wasIdle = outstanding.isEmpty();
        outstanding.add(request);
        if (wasIdle) {
            LockSupport.unpark(closer);
        }
        try {
            Payload payload = Payload.create(data.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data));
            target.requestResponse(payload).subscribe(request);
        } catch (RuntimeException e) {
            request.failNow(e);
        }
    }

    /** Waits for the sender, which has finished or was told to stop. */
    private void joinSender(Thread t) {
        while (true) {
            try {
                t.join();
                return;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }
}
