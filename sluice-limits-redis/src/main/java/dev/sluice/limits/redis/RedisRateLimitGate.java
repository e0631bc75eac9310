package dev.sluice.limits.redis;

import dev.sluice.core.Payload;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.RequestGate;
import dev.sluice.core.RequestType;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Function;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link RequestGate} that applies a {@link RedisRateLimiter} to incoming requests, so that every process sharing
 * that Redis shares one limit: each request reserves one token of its key for at most {@code maxWait}, and is
 * refused with ERROR[REJECTED] {@value RateLimitGate#RATE_LIMITED} — the local gate's answer — when the reservation
 * says the token would come later. A granted reservation with a delay holds the request back for that delay.
 *
 * <pre>{@code
 * RedisRateLimiter limiter = RedisRateLimiter.builder(425, 10).redis("redis://127.0.0.1:6379").build();
 * SocketAcceptor limited = RequestGate.protect(acceptor,
 *     connection -> RedisRateLimitGate.of(limiter, request -> "global", Duration.ZERO));
 * // ... and limiter.close() once the server has stopped.
 * }</pre>
 *
 * <p><b>Threads.</b> Redis answers on Lettuce's I/O threads, which must never run a handler (a slow one would stall
 * every decision of the process). So the outcome is handed back to the event loop of the connection that asked
 * (captured in {@link #admit}, which the engine calls on that loop), where the handler then runs as it does for a
 * request admitted at once; the wait, too, is timed on that loop. Off an event loop (a test calling
 * {@code admit} directly), {@link Schedulers#parallel()} takes that role.
 *
 * <p><b>Cancellation</b> gives the reservation back whenever it can: during the wait, at once; while Redis is still
 * deciding, when its answer comes (the decision is awaited, not cancelled, so that its tokens can be returned).
 * Redis returns only tokens whose time has not come yet (Go's {@code CancelAt}); a token granted for immediate use
 * is spent.
 *
 * <p><b>When Redis does not answer</b> within the limiter's timeout, its {@link FailurePolicy} decides: fail open
 * admits, fail closed refuses with {@value #RATE_LIMITER_UNAVAILABLE} — not {@value RateLimitGate#RATE_LIMITED},
 * so that a client (and whoever reads its logs) can tell an outage of the limiter from a request over the limit.
 *
 * <p>Thread-safe. A Redis round trip per request: this gate adds that latency to every request (sub-millisecond on
 * a local network) and allocates per request, unlike the local {@link RateLimitGate}.
 */
public final class RedisRateLimitGate implements RequestGate {

    /** The ERROR[REJECTED] message of a request refused because Redis did not answer and the policy fails closed. */
    public static final String RATE_LIMITER_UNAVAILABLE = "rate_limiter_unavailable";

    private final RedisRateLimiter limiter;
    private final Function<Payload, String> key;
    private final Duration maxWait;

    private RedisRateLimitGate(RedisRateLimiter limiter, Function<Payload, String> key, Duration maxWait) {
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        this.key = Objects.requireNonNull(key, "key");
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait < 0: " + maxWait);
        }
        this.maxWait = maxWait;
    }

    /**
     * A gate in which each request takes a token of the bucket {@code key.apply(request)} of {@code limiter},
     * waiting up to {@code maxWait} for it. The limiter stays the caller's to close.
     *
     * @param key the bucket of a request; it reads the borrowed payload at once and must not keep it
     * @throws IllegalArgumentException if {@code maxWait} is negative
     */
    public static RedisRateLimitGate of(RedisRateLimiter limiter, Function<Payload, String> key, Duration maxWait) {
        return new RedisRateLimitGate(limiter, key, maxWait);
    }

    @Override
    public Mono<Void> admit(RequestType type, Payload request) {
        // Both read now, on the connection's event loop: the payload is only borrowed for this call.
        String bucket = key.apply(request);
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        return Mono.create(sink -> new Admission(sink, loop, limiter.failurePolicy())
            .start(limiter.reserveN(bucket, 1, maxWait)));
    }

    /**
     * One request's passage through the gate: a small state machine, because Redis's answer, the wait's end and
     * the requester's cancel can come on three threads.
     */
    private static final class Admission {

        /** Redis has not answered yet. */
        private static final int DECIDING = 0;
        /** Granted with a delay: the timer runs. */
        private static final int WAITING = 1;
        /** Admitted or refused: the outcome is on its way to the sink. */
        private static final int DONE = 2;
        /** Cancelled by the requester before an outcome. */
        private static final int CANCELLED = 3;

        private static final AtomicIntegerFieldUpdater<Admission> STATE =
            AtomicIntegerFieldUpdater.newUpdater(Admission.class, "state");

        private final MonoSink<Void> sink;
        private final EventExecutor loop;
        private final FailurePolicy policy;
        private volatile int state;
        private volatile Decision decision;
        private volatile Disposable timer;

        Admission(MonoSink<Void> sink, EventExecutor loop, FailurePolicy policy) {
            this.sink = sink;
            this.loop = loop;
            this.policy = policy;
        }

        void start(Mono<Decision> reservation) {
            sink.onCancel(this::cancel);
            // Not tied to the sink: a cancel must not drop Redis's answer, whose tokens are to be given back.
            reservation.subscribe(this::decided, this::failed);
        }

        private void decided(Decision d) {
            if (!d.allowed()) {
                // Refused by Redis (nothing taken), or by the fail-closed policy.
                finish(false, d.degraded() ? RATE_LIMITER_UNAVAILABLE : RateLimitGate.RATE_LIMITED);
                return;
            }
            long delay = d.delayNanos();
            if (d.degraded() || delay == 0) {
                if (!finish(true, null)) {
                    giveBack(d);
                }
                return;
            }
            decision = d;
            timer = schedule(() -> finish(true, null), delay);
            if (!STATE.compareAndSet(this, DECIDING, WAITING) && state == CANCELLED) {
                timer.dispose();
                giveBack(d);
            }
        }

        /** Not expected (the limiter turns Redis's failures into degraded decisions); the policy decides. */
        private void failed(Throwable error) {
            finish(policy == FailurePolicy.FAIL_OPEN, RATE_LIMITER_UNAVAILABLE);
        }

        private void cancel() {
            for (;;) {
                int s = state;
                if (s == DECIDING) {
                    if (STATE.compareAndSet(this, DECIDING, CANCELLED)) {
                        return;
                    }
                } else if (s == WAITING) {
                    if (STATE.compareAndSet(this, WAITING, CANCELLED)) {
                        timer.dispose();
                        giveBack(decision);
                        return;
                    }
                } else {
                    return;
                }
            }
        }

        /**
         * Signals the outcome on the connection's loop unless cancelled or done; whether this call did.
         *
         * @param refusal the ERROR[REJECTED] message if not admitted
         */
        private boolean finish(boolean admitted, String refusal) {
            for (;;) {
                int s = state;
                if (s == DONE || s == CANCELLED) {
                    return false;
                }
                if (STATE.compareAndSet(this, s, DONE)) {
                    break;
                }
            }
            Runnable signal = admitted ? sink::success : () -> sink.error(new RejectedException(refusal));
            if (loop != null && loop.inEventLoop()) {
                signal.run();
                return true;
            }
            if (loop != null) {
                try {
                    loop.execute(signal);
                    return true;
                } catch (RejectedExecutionException shuttingDown) {
                    // The connection's loop is closing; the outcome still has to reach the engine.
                }
            }
            Schedulers.parallel().schedule(signal);
            return true;
        }

        private Disposable schedule(Runnable task, long delayNanos) {
            if (loop != null) {
                try {
                    Future<?> f = loop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
                    return () -> f.cancel(false);
                } catch (RejectedExecutionException shuttingDown) {
                    // As in finish: fall back to a timer that is still running.
                }
            }
            return Schedulers.parallel().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        }

        private void giveBack(Decision d) {
            // Fire and forget: nobody waits for it, and unreturned tokens come back with time anyway.
            d.cancel().subscribe(returned -> { }, error -> { });
        }
    }
}
