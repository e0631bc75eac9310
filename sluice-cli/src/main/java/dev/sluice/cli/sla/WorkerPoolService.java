package dev.sluice.cli.sla;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;

/**
 * The SLA scenario's upstream: a service with a fixed number of workers, each handling one call at a time for a
 * service time drawn uniformly from {@code [minNanos, maxNanos]}, and an unbounded first-in first-out queue for the
 * calls that find every worker busy — the model of a thread pool in front of a slow dependency. Its capacity is
 * {@code workers / mean service time} calls per second; beyond it the queue, and every call's wait, grow without
 * bound.
 *
 * <p>Cancellation: a queued call that is cancelled (its caller timed out and sent CANCEL) leaves the queue and costs
 * nothing; a call being served keeps its worker busy to the end, as a thread that does not notice its caller left,
 * and its answer is dropped.
 *
 * <p>Thread-safe: the queue and the worker count are guarded by this object. Service times are timed on
 * {@code timer}, whose thread also delivers the answers (the engine then hands them to the connection's event loop).
 * Request-response only; requests are released at once, answers are a constant {@code ok}.
 */
public final class WorkerPoolService implements RSocket {

    private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

    private final int workers;
    private final long minNanos;
    private final long maxNanos;
    private final Scheduler timer;
    private final SplittableRandom random;
    private final ArrayDeque<Call> queue = new ArrayDeque<>();
    private int busy;
    private long served;

    /**
     * @param workers calls served at once, >= 1
     * @param minNanos the shortest service time, ns, >= 0
     * @param maxNanos the longest service time, ns, >= {@code minNanos}
     * @param timer times the service and delivers the answers
     * @param seed seeds the service times, so that runs are repeatable
     */
    public WorkerPoolService(int workers, long minNanos, long maxNanos, Scheduler timer, long seed) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers < 1: " + workers);
        }
        if (minNanos < 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("expected 0 <= minNanos <= maxNanos, got minNanos=" + minNanos
                + " maxNanos=" + maxNanos);
        }
        this.workers = workers;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.timer = timer;
        this.random = new SplittableRandom(seed);
    }

    /** Calls per second this service serves at most; see {@link #capacity(int, long, long)}. */
    public double capacity() {
        return capacity(workers, minNanos, maxNanos);
    }

    /**
     * Calls per second {@code workers} serve at most when each call takes a time drawn uniformly from
     * {@code [minNanos, maxNanos]}: workers / mean service time; infinite for a zero service time.
     */
    public static double capacity(int workers, long minNanos, long maxNanos) {
        double mean = (minNanos + maxNanos) / 2.0;
        return mean == 0 ? Double.POSITIVE_INFINITY : workers * 1e9 / mean;
    }

    /** Calls waiting for a worker now. */
    public synchronized int queued() {
        return queue.size();
    }

    /** Calls being served now. */
    public synchronized int busy() {
        return busy;
    }

    /** Calls whose service ended (answered, or dropped because their caller had left) so far. */
    public synchronized long served() {
        return served;
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        payload.release();
        return Mono.create(sink -> {
            Call call = new Call(sink);
            sink.onCancel(() -> cancel(call));
            arrive(call);
        });
    }

    private void arrive(Call call) {
        long serviceNanos;
        synchronized (this) {
            if (busy == workers) {
                queue.addLast(call);
                return;
            }
            busy++;
            serviceNanos = nextServiceNanos();
        }
        start(call, serviceNanos);
    }

    private void start(Call call, long serviceNanos) {
        timer.schedule(() -> finish(call), serviceNanos, TimeUnit.NANOSECONDS);
    }

    /** A worker is done with {@code call}: answer it, then take the first live call of the queue, if any. */
    private void finish(Call call) {
        if (!call.cancelled) {
            // A wrapped constant, not a pooled buffer: if the caller cancels at this very moment, the sink drops
            // the answer without releasing it, which must not leak.
            call.sink.success(Payload.create(Unpooled.wrappedBuffer(OK)));
        }
        Call next;
        long serviceNanos = 0;
        synchronized (this) {
            served++;
            // Bounded by the queue: each round removes one call.
            do {
                next = queue.pollFirst();
            } while (next != null && next.cancelled);
            if (next == null) {
                busy--;
            } else {
                serviceNanos = nextServiceNanos();
            }
        }
        if (next != null) {
            start(next, serviceNanos);
        }
    }

    private void cancel(Call call) {
        call.cancelled = true;
        synchronized (this) {
            // A queued call leaves now; a call in service keeps its worker until its time is up.
            queue.remove(call);
        }
    }

    /** Guarded by this. */
    private long nextServiceNanos() {
        return minNanos == maxNanos ? minNanos : minNanos + random.nextLong(maxNanos - minNanos + 1);
    }

    /** One call: where its answer goes, and whether its caller left. */
    private static final class Call {
        final MonoSink<Payload> sink;
        volatile boolean cancelled;

        Call(MonoSink<Payload> sink) {
            this.sink = sink;
        }
    }
}
