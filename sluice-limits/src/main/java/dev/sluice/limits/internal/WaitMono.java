package dev.sluice.limits.internal;

import dev.sluice.limits.NanoClock;
import dev.sluice.limits.RateLimitedException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;

/**
 * Waits for tokens: Go's {@code WaitN} as a {@code Mono<Void>} that completes when the caller may act.
 *
 * <p>At subscription it reserves the tokens with the time left until the deadline as the longest acceptable wait.
 * If the reservation cannot make the deadline it fails at once with {@link RateLimitedException}, without waiting
 * and without changing the bucket; that is the point: a request that would miss its deadline anyway is refused in
 * microseconds rather than after a timeout. Otherwise it completes after the reservation's delay on the
 * scheduler (at once if there is none), and a cancel before then gives the tokens back.
 *
 * <p>Not part of the API. Each subscription makes its own reservation. Instants are nanoseconds on the clock.
 */
public final class WaitMono extends Mono<Void> {

    /** No deadline: the wait may be any length. */
    public static final int NO_DEADLINE = 0;
    /** The deadline is an instant on the clock. */
    public static final int ABSOLUTE = 1;
    /** The deadline is a longest wait, counted from the time of the reservation. */
    public static final int RELATIVE = 2;

    private final BucketSource source;
    private final NanoClock clock;
    private final Scheduler scheduler;
    private final int n;
    private final boolean fixedNow;
    private final long now;
    private final int deadlineKind;
    private final long deadline;

    /**
     * A wait for {@code n} tokens of {@code source}, assembled (Reactor's assembly hooks see it).
     *
     * @param fixedNow whether to reserve at {@code now} rather than at the clock's time of subscription
     * @param deadlineKind {@link #NO_DEADLINE}, {@link #ABSOLUTE} or {@link #RELATIVE}: how to read {@code deadline}
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public static Mono<Void> create(BucketSource source, NanoClock clock, Scheduler scheduler, int n,
            boolean fixedNow, long now, int deadlineKind, long deadline) {
        return onAssembly(new WaitMono(source, clock, scheduler, n, fixedNow, now, deadlineKind, deadline));
    }

    private WaitMono(BucketSource source, NanoClock clock, Scheduler scheduler, int n,
            boolean fixedNow, long now, int deadlineKind, long deadline) {
        this.source = source;
        this.clock = clock;
        this.scheduler = scheduler;
        this.n = RateMath.checkN(n);
        this.fixedNow = fixedNow;
        this.now = now;
        this.deadlineKind = deadlineKind;
        this.deadline = deadline;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Void> actual) {
        long t = fixedNow ? now : clock.nanoTime();
        RealReservation r;
        // Bounded: a retired bucket is replaced by a fresh one, which is only retired once it has been full again.
        for (;;) {
            TokenBucket bucket = source.bucketAt(t);
            if (bucket == null) {
                Operators.error(actual, new RateLimitedException(source.refusal()));
                return;
            }
            int burst = bucket.burst();
            if (n > burst && bucket.limit() != RateMath.INF) {
                Operators.error(actual, new RateLimitedException("n > burst: n=" + n + ", burst=" + burst));
                return;
            }
            long maxWait = deadlineKind == ABSOLUTE ? RateMath.saturatingSub(deadline, t)
                    : deadlineKind == RELATIVE ? deadline : RateMath.INF_DURATION;
            if (maxWait < 0) {
                Operators.error(actual, new RateLimitedException(deadlineKind == RELATIVE
                        ? "timeout < 0: " + maxWait + "ns"
                        : "deadline passed: " + RateMath.saturatingSub(0, maxWait) + "ns ago"));
                return;
            }
            r = bucket.reserveN(t, n, maxWait, clock);
            if (r != null) {
                if (!r.ok()) {
                    Operators.error(actual, new RateLimitedException(deadlineKind == RELATIVE
                            ? "tokens not available within timeout: n=" + n + ", timeout=" + maxWait + "ns"
                            : "tokens not available before deadline: n=" + n + ", timeLeft=" + maxWait + "ns"));
                    return;
                }
                break;
            }
        }
        long delay = r.delayFrom(t);
        if (delay == 0) {
            Operators.complete(actual);
            return;
        }
        Waiting waiting = new Waiting(actual, r);
        actual.onSubscribe(waiting);
        waiting.schedule(scheduler, delay);
    }

    /** A reservation being waited for: completes on the timer, or gives the tokens back on cancel. */
    static final class Waiting implements Subscription, Runnable {

        private static final int WAITING = 0;
        private static final int DONE = 1;
        private static final int CANCELLED = 2;

        private static final AtomicIntegerFieldUpdater<Waiting> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Waiting.class, "state");

        private final CoreSubscriber<? super Void> actual;
        private final RealReservation reservation;
        private volatile int state;
        private volatile Disposable timer;

        Waiting(CoreSubscriber<? super Void> actual, RealReservation reservation) {
            this.actual = actual;
            this.reservation = reservation;
        }

        void schedule(Scheduler scheduler, long delay) {
            if (delay == RateMath.INF_DURATION) {
                // The tokens never come (a zero rate): no timer, the wait ends only when it is cancelled.
                return;
            }
            Disposable t;
            try {
                t = scheduler.schedule(this, delay, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                if (STATE.compareAndSet(this, WAITING, DONE)) {
                    reservation.cancel();
                    actual.onError(Operators.onRejectedExecution(e, actual.currentContext()));
                }
                return;
            }
            timer = t;
            // A cancel that ran before the timer was stored could not dispose it.
            if (state == CANCELLED) {
                t.dispose();
            }
        }

        @Override
        public void run() {
            if (STATE.compareAndSet(this, WAITING, DONE)) {
                actual.onComplete();
            }
        }

        @Override
        public void request(long n) {
            // A Mono<Void> never emits a value: demand changes nothing.
        }

        @Override
        public void cancel() {
            if (STATE.compareAndSet(this, WAITING, CANCELLED)) {
                // Once the timer has fired the tokens are used; before, another caller may have them sooner.
                reservation.cancel();
                Disposable t = timer;
                if (t != null) {
                    t.dispose();
                }
            }
        }
    }
}
