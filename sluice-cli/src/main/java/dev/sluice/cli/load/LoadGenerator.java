package dev.sluice.cli.load;

import dev.sluice.cli.load.internal.PendingRequest;
import dev.sluice.cli.load.internal.RampSchedule;
import dev.sluice.cli.load.internal.SendSchedule;
import dev.sluice.cli.load.internal.StepTally;
import dev.sluice.cli.load.internal.Tally;
import dev.sluice.core.RSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * An open-loop request-response client: it offers a {@link Ramp} of load to a target — a list of steps, each a rate
 * held for a duration; a constant load is a one-step ramp — whatever the answers do, and reports what became of the
 * requests step by step and second by second, then a {@link LoadSummary}.
 *
 * <p><b>Open loop.</b> Request {@code i} has an intended send time given by the ramp ({@code stepStart + j / rate}
 * for the {@code j}-th request of its step). A dedicated sender thread parks until the next intended time and fires
 * the request without waiting for any answer; if it falls behind (a pause, a slow subscribe) it fires every request
 * that is due at once — it never skips one and never waits for responses. Latency is measured from the intended time
 * to the outcome, so a server that stalls is charged for the whole wait of every request behind it (no coordinated
 * omission). Latencies are recorded in HdrHistograms, in microseconds.
 *
 * <p><b>Outcomes.</b> Each request ends as exactly one of: a success (a response; its data names the answering
 * server, e.g. {@code 127.0.0.1:7001}, and successes are counted per server), rejected (ERROR[REJECTED], counted per
 * message), timed out, or failed (any other error, counted per cause). So {@code sent == successes + rejected +
 * timedOut + failed}, for each step and for the run.
 *
 * <p><b>Waiting for answers.</b> With a {@link #timeout}, a request not answered within it of its intended send time
 * counts as timed out and is cancelled (RSocket sends CANCEL, so a responder that honours it drops the work); time
 * spent behind a stalled sender counts against it too. Timeouts are kept in send order, which is deadline order, in
 * one queue that the thread running {@link #run()} watches: no timer per request. After the last send the run waits
 * up to the {@link #drainTimeout}; requests still unanswered then are cancelled and count as failed. Without a
 * timeout, only the drain timeout bounds the wait.
 *
 * <p><b>Reporting</b>, on the thread that called {@link #run()}: {@link #onSecond} once per second of the run (the
 * sending seconds, then the draining ones), with the outcomes that came during it; {@link #onStep} once per step, as
 * soon as the sender is past it and each of its requests has its outcome, with the outcomes of the requests that were
 * due during it.
 *
 * <pre>{@code
 * LoadSummary constant = LoadGenerator.create(connection).ramp(Ramp.constant(1000, Duration.ofSeconds(30)))
 *     .onSecond(second -> System.out.println(ConsoleReport.second(second)))
 *     .run();
 * LoadSummary stairs = LoadGenerator.create(connection).ramp(new Ramp(100, 600, 50, Duration.ofSeconds(5)))
 *     .timeout(Duration.ofMillis(500)).onStep(step -> System.out.println(StepTable.progress(step)))
 *     .run();
 * }</pre>
 *
 * <p>Thread-safety: configure it from one thread, then call {@link #run()} once; {@link #stop()} may be called from
 * any thread.
 */
public final class LoadGenerator {

    /** The largest rate accepted, requests per second. */
    public static final int MAX_RATE = SendSchedule.MAX_RATE;

    /** The largest payload accepted, bytes (RSocket's frame length limit). */
    public static final int MAX_PAYLOAD_SIZE = 16 * 1024 * 1024 - 64;

    private static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final RSocket target;
    private final LongSupplier nanoClock = System::nanoTime;
    private Ramp ramp = Ramp.constant(1000, Duration.ofSeconds(30));
    /** Null: requests have no timeout of their own. */
    private Duration timeout;
    /** Null: the timeout if there is one, else {@link #DEFAULT_DRAIN_TIMEOUT}. */
    private Duration drainTimeout;
    private int payloadSize = 16;
    private Consumer<SecondStats> secondListener = s -> { };
    private Consumer<StepStats> stepListener = s -> { };

    private final AtomicBoolean started = new AtomicBoolean();
    /** Every request sent and not yet settled: what is left to give up at the end. */
    private final Set<PendingRequest> inFlight = ConcurrentHashMap.newKeySet();
    /** With a timeout, the requests sent, in send order (and so deadline order), until settled or timed out. */
    private final Queue<PendingRequest> deadlines = new ConcurrentLinkedQueue<>();
    private final PendingRequest.Listener onSettled = this::settled;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile Thread sender;
    private volatile Thread closer;
    // Set up by run() before the sender starts.
    private RampSchedule schedule;
    private Tally seconds;
    private StepTally[] steps;
    /** The sender thread's work, and what it reports: how far it got, when it stopped, how it failed. */
    private LoadSender sending;
    // Closer-confined.
    private final List<SecondStats> closedSeconds = new ArrayList<>();
    private boolean interrupted;
    private RuntimeException listenerFailure;

    private LoadGenerator(RSocket target) {
        this.target = target;
    }

    /**
     * A generator sending to {@code target} (a connection, a balancer, ...): by default 1000 requests/s for 30 s,
     * no timeout, a drain timeout of 10 s.
     */
    public static LoadGenerator create(RSocket target) {
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
        return new LoadGenerator(target);
    }

    /** The load to offer: {@link Ramp#constant} for a constant rate. */
    public LoadGenerator ramp(Ramp plan) {
        if (plan == null) {
            throw new IllegalArgumentException("ramp must not be null");
        }
        this.ramp = plan;
        return this;
    }

    /**
     * How long a request may take, from its intended send time, before it counts as timed out and is cancelled
     * (default: no timeout; the drain timeout alone bounds the wait for the last answers).
     */
    public LoadGenerator timeout(Duration requestTimeout) {
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()
            || requestTimeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be > 0 and < 2^31 s, got " + requestTimeout);
        }
        this.timeout = requestTimeout;
        return this;
    }

    /**
     * How long to wait after the last send for outstanding answers; requests still unanswered then are cancelled and
     * counted as failed. Zero stops at once. By default the {@link #timeout} if there is one (so that every request
     * gets its whole timeout), else 10 s.
     */
    public LoadGenerator drainTimeout(Duration drain) {
        if (drain == null || drain.isNegative() || drain.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("drain timeout must be >= 0 and < 2^31 s, got " + drain);
        }
        this.drainTimeout = drain;
        return this;
    }

    /** Bytes of data in each request, 0 to {@link #MAX_PAYLOAD_SIZE} (default 16). */
    public LoadGenerator payloadSize(int bytes) {
        if (bytes < 0 || bytes > MAX_PAYLOAD_SIZE) {
            throw new IllegalArgumentException("payload size must be between 0 and " + MAX_PAYLOAD_SIZE
                + " bytes, got " + bytes);
        }
        this.payloadSize = bytes;
        return this;
    }

    /** Called with each second's stats, in order, on the thread running {@link #run()}; it should return quickly. */
    public LoadGenerator onSecond(Consumer<SecondStats> listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        this.secondListener = listener;
        return this;
    }

    /** Called with each step's figures as soon as they are final, in order, on the thread running {@link #run()}. */
    public LoadGenerator onStep(Consumer<StepStats> listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        this.stepListener = listener;
        return this;
    }

    /**
     * Stops sending now (requests not yet sent are not sent); the requests sent still get their outcome, and the
     * run ends as usual. Safe from any thread, e.g. a shutdown hook; does nothing once the run is over.
     */
    public void stop() {
        stopped.set(true);
        LockSupport.unpark(sender);
    }

    /**
     * Runs the load: starts the sender thread, reports each second and each step to the listeners from this thread,
     * waits for every request's outcome (up to the timeout or the drain timeout) and returns the summary. If this
     * thread is interrupted, sending stops, outstanding requests are counted as failed at once, and the summary of
     * what happened is returned with the interrupt flag set.
     *
     * @throws IllegalStateException if called twice, or if the sender failed
     * @throws RuntimeException what a listener threw (the run is stopped and its requests settled first)
     */
    public LoadSummary run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("a LoadGenerator runs once; create another");
        }
        byte[] data = new byte[payloadSize];
        Arrays.fill(data, (byte) 'x');
        long start = nanoClock.getAsLong();
        schedule = RampSchedule.of(start, ramp);
        seconds = new Tally(nanoClock, start);
        steps = new StepTally[schedule.steps()];
        for (int s = 0; s < steps.length; s++) {
            steps[s] = new StepTally();
        }
        closer = Thread.currentThread();
        sending = new LoadSender(target, data, schedule, seconds, steps, timeout, nanoClock, inFlight, deadlines,
            onSettled, stopped, closer);
        Thread t = new Thread(sending, "sluice-load-sender");
        t.setDaemon(true);
        sender = t;
        t.start();

        List<StepStats> closedSteps = closeUntilSettled(start);
        joinSender(t);
        for (SecondStats second : seconds.closeRemaining()) {
            closedSeconds.add(second);
            deliver(secondListener, second);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable senderFailure = sending.failure();
        if (senderFailure != null) {
            throw new IllegalStateException("the load sender failed: " + senderFailure, senderFailure);
        }
        if (listenerFailure != null) {
            throw listenerFailure;
        }
        return summary(start, closedSteps);
    }

    /**
     * The closer's loop: closes each second once its end has passed, times requests out at their deadlines, gives up
     * on the rest when the drain timeout runs out (or at once if the run is interrupted or a listener failed), and
     * closes steps in order once settled — until every step is closed. Ends because every request settles by the
     * drain deadline at the latest, which the loop enforces once the sender is done.
     */
    private List<StepStats> closeUntilSettled(long start) {
        List<StepStats> closed = new ArrayList<>();
        long drainNanos = effectiveDrainTimeout().toNanos();
        int nextStep = 0;
        while (true) {
            long now = nanoClock.getAsLong();
            long secondEnd = seconds.endNanos(seconds.nextToClose());
            if (now - secondEnd >= 0) {
                SecondStats second = seconds.closeNext();
                closedSeconds.add(second);
                deliver(secondListener, second);
                continue;
            }
            PendingRequest head = timeOutDue(now);
            long wakeUp = head != null && head.deadlineNanos() - secondEnd < 0 ? head.deadlineNanos() : secondEnd;
            if (sending.done()) {
                long drainDeadline = sending.sendEnd() + drainNanos;
                String cause = interrupted ? "interrupted before an answer came"
                    : listenerFailure != null ? "run stopped: the listener failed"
                    : now - drainDeadline >= 0 ? "no answer within the drain timeout ("
                        + Latency.format(drainNanos / 1000) + ")"
                    : null;
                if (cause != null) {
                    // What is left after this is settling on another thread, which wakes us when a step completes.
                    for (PendingRequest r : inFlight) {
                        r.abandon(cause);
                    }
                } else if (drainDeadline - wakeUp < 0) {
                    wakeUp = drainDeadline;
                }
            }
            for (; nextStep < steps.length && closable(nextStep); nextStep++) {
                if (steps[nextStep].sentCount() > 0) {
                    StepStats stats = steps[nextStep].stats(nextStep, ramp.rate(nextStep), sentDuration(start,
                        nextStep));
                    closed.add(stats);
                    deliver(stepListener, stats);
                }
            }
            if (nextStep == steps.length) {
                return closed;
            }
            // Woken early by a completed step, a new head of the deadline queue, or the sender's end.
            LockSupport.parkNanos(this, wakeUp - now);
            if (Thread.interrupted()) {
                interrupted = true;
                stop();
            }
        }
    }

    /** Drops settled requests from the head of the deadline queue and times out those due; returns the new head. */
    private PendingRequest timeOutDue(long now) {
        PendingRequest head;
        while ((head = deadlines.peek()) != null) {
            if (head.isSettled()) {
                deadlines.poll();
            } else if (now - head.deadlineNanos() >= 0) {
                deadlines.poll();
                head.timeOut();
            } else {
                break;
            }
        }
        return head;
    }

    private Duration effectiveDrainTimeout() {
        return drainTimeout != null ? drainTimeout : timeout != null ? timeout : DEFAULT_DRAIN_TIMEOUT;
    }

    /** Whether the sender is past step {@code s} and each of its requests is settled. */
    private boolean closable(int s) {
        return sendingOver(s) && steps[s].settled() == steps[s].sentCount();
    }

    private boolean sendingOver(int s) {
        return sending.done() || sending.fired() >= schedule.firstIndex(s + 1);
    }

    /** How long step {@code s} sent: all of it, or up to the stop. */
    private Duration sentDuration(long start, int s) {
        long planned = ramp.stepDuration().toNanos();
        if (sending.fired() >= schedule.firstIndex(s + 1)) {
            return Duration.ofNanos(planned);
        }
        long stepStart = start + s * planned;
        return Duration.ofNanos(Math.max(0, Math.min(planned, sending.sendEnd() - stepStart)));
    }

    /** Called once per request, on the thread that settled it: wakes the closer when that completes a step. */
    private void settled(PendingRequest request, int step, long settledInStep) {
        inFlight.remove(request);
        if (settledInStep == steps[step].sentCount() && sendingOver(step)) {
            LockSupport.unpark(closer);
        }
    }

    /** Hands a second or a step to its listener; the first failure stops the run and is kept for {@link #run()}. */
    private <T> void deliver(Consumer<T> listener, T stats) {
        if (listenerFailure != null) {
            return;
        }
        try {
            listener.accept(stats);
        } catch (RuntimeException e) {
            listenerFailure = e;
            stop();
        }
    }

    private LoadSummary summary(long start, List<StepStats> closedSteps) {
        long sent = sending.fired();
        boolean stoppedEarly = sent < schedule.total();
        // A run stopped early reports over the time it did send, so that its rates stay true.
        Duration sentFor = stoppedEarly ? Duration.ofNanos(Math.max(1, sending.sendEnd() - start)) : ramp.duration();
        long sendingNanos = Math.max(sentFor.toNanos(), sent == 0 ? 0 : sending.lastSendNanos() - start);
        Histogram success = new Histogram(3);
        Histogram failure = new Histogram(3);
        Histogram rejection = new Histogram(3);
        for (StepTally step : steps) {
            step.addTo(success, failure, rejection);
        }
        return new LoadSummary(ramp, timeout, payloadSize, sentFor, closedSteps, closedSeconds,
            seconds.responsesByServer(), Latency.of(success), Latency.of(failure), Latency.of(rejection),
            sent * 1e9 / sendingNanos, sending.maxLagNanos() / 1000, stoppedEarly);
    }

    /** Waits for the sender, which has finished or was told to stop: it only has to leave its current send. */
    private void joinSender(Thread t) {
        while (true) {
            try {
                t.join();
                return;
            } catch (InterruptedException e) {
                // Kept for run() to restore once the run is wrapped up.
                interrupted = true;
            }
        }
    }
}
