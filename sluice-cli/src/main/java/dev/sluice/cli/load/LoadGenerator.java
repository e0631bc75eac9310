package dev.sluice.cli.load;

import dev.sluice.cli.load.internal.PendingRequest;
import dev.sluice.cli.load.internal.SendSchedule;
import dev.sluice.cli.load.internal.Tally;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * An open-loop, constant-rate request-response client: it sends {@code rate} requests per second to a target for a
 * given duration, whatever the answers do, and reports every second and a final {@link LoadSummary}.
 *
 * <p><b>Open loop.</b> Request {@code i} has an intended send time, {@code start + i / rate}. A dedicated sender
 * thread parks until the next intended time and fires the request without waiting for any answer; if it falls
 * behind (a pause, a slow subscribe) it fires every request that is due at once — it never skips one and never waits
 * for responses. Latency is measured from the intended time to the answer, so a server that stalls is charged for
 * the whole wait of every request behind it (no coordinated omission). Latencies are recorded in HdrHistograms, in
 * microseconds.
 *
 * <p><b>Outcomes.</b> Each request ends as exactly one of: a response (its data names the answering server, e.g.
 * {@code 127.0.0.1:7001}, and responses are counted per server), rejected (ERROR[REJECTED]), or failed (any other
 * error; or no answer within the drain timeout after the last send — then the request is cancelled and counted as
 * failed). So {@code sent == responses + rejected + failed}, always.
 *
 * <p><b>Reporting.</b> {@link #run()} calls the listener once per second of the run, on the thread that called
 * {@code run()}, with that second's {@link SecondStats} (the sending seconds, then the draining ones), and returns
 * the summary.
 *
 * <pre>{@code
 * LoadSummary s = LoadGenerator.create(connection).rate(1000).duration(Duration.ofSeconds(30))
 *     .onSecond(second -> System.out.println(second))
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

    private final RSocket target;
    private int rate = 1000;
    private Duration duration = Duration.ofSeconds(30);
    private int payloadSize = 16;
    private Duration drainTimeout = Duration.ofSeconds(10);
    private Consumer<SecondStats> listener = s -> { };

    private final AtomicBoolean started = new AtomicBoolean();
    private final Set<PendingRequest> inFlight = ConcurrentHashMap.newKeySet();
    private final Consumer<PendingRequest> onSettled = this::settled;
    private volatile boolean stopped;
    private volatile boolean senderDone;
    private volatile long lastSendNanos;
    private volatile long sendEndNanos;
    private volatile Thread sender;
    private volatile Thread closer;
    // Written by the sender, read by the closer after joining it.
    private long maxLagNanos;
    private Throwable senderFailure;
    private boolean stoppedEarly;
    // Closer-confined.
    private boolean interrupted;
    private RuntimeException listenerFailure;

    private LoadGenerator(RSocket target) {
        this.target = target;
    }

    /** A generator sending to {@code target} (a connection, a balancer, ...), with 1000/s for 30 s by default. */
    public static LoadGenerator create(RSocket target) {
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
        return new LoadGenerator(target);
    }

    /** Requests per second, 1 to 10,000,000 (default 1000). */
    public LoadGenerator rate(int requestsPerSecond) {
        if (requestsPerSecond < 1 || requestsPerSecond > SendSchedule.MAX_RATE) {
            throw new IllegalArgumentException("rate must be between 1 and " + SendSchedule.MAX_RATE
                + " requests/s, got " + requestsPerSecond);
        }
        this.rate = requestsPerSecond;
        return this;
    }

    /** How long to send (default 30 s); the run then waits up to the drain timeout for outstanding answers. */
    public LoadGenerator duration(Duration sendFor) {
        if (sendFor == null || sendFor.isNegative() || sendFor.isZero() || sendFor.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("duration must be > 0 and < 2^31 s, got " + sendFor);
        }
        this.duration = sendFor;
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

    /**
     * How long to wait after the last send for outstanding answers (default 10 s); requests still unanswered then
     * are cancelled and counted as failed. Zero stops at once.
     */
    public LoadGenerator drainTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("drain timeout must be >= 0 and < 2^31 s, got " + timeout);
        }
        this.drainTimeout = timeout;
        return this;
    }

    /** Called with each second's stats, on the thread running {@link #run()}; it should return quickly. */
    public LoadGenerator onSecond(Consumer<SecondStats> secondListener) {
        if (secondListener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        this.listener = secondListener;
        return this;
    }

    /**
     * Stops sending now (requests not yet sent are not sent), then the run drains as usual. Safe from any thread,
     * e.g. a shutdown hook; does nothing once the run is over.
     */
    public void stop() {
        stopped = true;
        LockSupport.unpark(sender);
    }

    /**
     * Runs the load: starts the sender thread, reports each second to the listener from this thread, waits up to
     * the drain timeout for the last answers, and returns the summary. If this thread is interrupted, sending stops,
     * outstanding requests are counted as failed at once, and the summary of what happened is returned with the
     * interrupt flag set.
     *
     * @throws IllegalStateException if called twice
     * @throws RuntimeException what the listener threw (the run is stopped and its requests settled first)
     */
    public LoadSummary run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("a LoadGenerator runs once; create another");
        }
        byte[] data = new byte[payloadSize];
        Arrays.fill(data, (byte) 'x');
        long start = System.nanoTime();
        SendSchedule schedule = SendSchedule.of(start, rate, duration);
        Tally tally = new Tally(System::nanoTime, start);
        closer = Thread.currentThread();
        Thread t = new Thread(() -> send(schedule, tally, data), "sluice-load-sender");
        t.setDaemon(true);
        sender = t;
        t.start();

        String leftOverCause = reportUntilDrained(tally);
        joinSender(t);
        for (PendingRequest r : List.copyOf(inFlight)) {
            r.expire(leftOverCause);
        }
        for (SecondStats second : tally.closeRemaining()) {
            deliver(second);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (senderFailure != null) {
            throw new IllegalStateException("the load sender failed: " + senderFailure, senderFailure);
        }
        if (listenerFailure != null) {
            throw listenerFailure;
        }
        // A run stopped early reports over the time it did send, so that its rates stay true.
        Duration sent = stoppedEarly ? Duration.ofNanos(Math.max(1, sendEndNanos - start)) : duration;
        long sendingNanos = Math.max(sent.toNanos(), tally.sentTotal() == 0 ? 0 : lastSendNanos - start);
        double achieved = tally.sentTotal() * 1e9 / sendingNanos;
        return tally.summary(rate, sent, payloadSize, achieved, maxLagNanos / 1000);
    }

    /**
     * Closes and delivers each second as its end passes, until the sender is done and either every request is
     * settled or the drain timeout ran out (or the run was interrupted or its listener failed). Returns the cause
     * under which requests still in flight are to be counted as failed.
     */
    private String reportUntilDrained(Tally tally) {
        long drainDeadline = Long.MAX_VALUE;
        // Ends at the drain deadline at the latest: once the sender is done, the deadline is finite.
        while (true) {
            long now = System.nanoTime();
            long secondEnd = tally.endNanos(tally.nextToClose());
            if (now - secondEnd >= 0) {
                deliver(tally.closeNext());
                continue;
            }
            if (senderDone) {
                if (drainDeadline == Long.MAX_VALUE) {
                    drainDeadline = sendEndNanos + drainTimeout.toNanos();
                }
                if (interrupted) {
                    return "interrupted before an answer came";
                }
                if (listenerFailure != null) {
                    return "run stopped: the listener failed";
                }
                if (inFlight.isEmpty() || now - drainDeadline >= 0) {
                    return "no answer within the drain timeout (" + Latency.format(drainTimeout.toNanos() / 1000)
                        + ")";
                }
            }
            long wakeUp = senderDone && drainDeadline - secondEnd < 0 ? drainDeadline : secondEnd;
            LockSupport.parkNanos(this, wakeUp - now);
            if (Thread.interrupted()) {
                interrupted = true;
                stop();
            }
        }
    }

    /** Hands a second to the listener; the first failure stops the run and is kept for {@link #run()}. */
    private void deliver(SecondStats second) {
        if (listenerFailure != null) {
            return;
        }
        try {
            listener.accept(second);
        } catch (RuntimeException e) {
            listenerFailure = e;
            stop();
        }
    }

    /** The sender thread: fires every due request, parks until the next one is due. */
    private void send(SendSchedule schedule, Tally tally, byte[] data) {
        long next = 0;
        long total = schedule.total();
        try {
            while (next < total && !stopped) {
                long now = System.nanoTime();
                long due = schedule.dueCount(now);
                if (next >= due) {
                    LockSupport.parkNanos(this, schedule.intendedNanos(next) - now);
                    continue;
                }
                // Behind or on time: fire everything due, never waiting for an answer.
                for (; next < due && !stopped; next++) {
                    long intended = schedule.intendedNanos(next);
                    fire(tally, intended, data);
                    long sentAt = System.nanoTime();
                    lastSendNanos = sentAt;
                    maxLagNanos = Math.max(maxLagNanos, sentAt - intended);
                }
            }
        } catch (Throwable e) {
            senderFailure = e;
        } finally {
            stoppedEarly = next < total;
            sendEndNanos = System.nanoTime();
            senderDone = true;
            LockSupport.unpark(closer);
        }
    }

    private void fire(Tally tally, long intendedNanos, byte[] data) {
        PendingRequest request = new PendingRequest(tally, intendedNanos, onSettled);
        // Tracked before it can settle, so the closer never misses it.
        inFlight.add(request);
        tally.sent();
        try {
            Payload payload = Payload.create(data.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data));
            target.requestResponse(payload).subscribe(request);
        } catch (RuntimeException e) {
            request.failNow(e);
        }
    }

    private void settled(PendingRequest request) {
        inFlight.remove(request);
        if (senderDone && inFlight.isEmpty()) {
            LockSupport.unpark(closer);
        }
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
