package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The cases of Go's {@code rate/rate_test.go} (golang.org/x/time v0.16.0), one test per Go test and named after
 * it, on the same time grid: {@code tN = t0 + N·d} with {@code d = 100 ms}. Go's internal
 * {@code reserveN(t, n, maxFutureReserve)} is our public {@code reserveN(t, n, maxWait)}; its fake timers are a
 * {@link VirtualTimeScheduler}. Like Go, reservation instants are compared in whole multiples of {@code d} (the
 * oracle vectors check them to the nanosecond).
 */
class RateLimiterGoTest {

    private static final long D = 100_000_000L;
    private static final long T0 = 7_000_000_000L;
    private static final long T1 = t(1);
    private static final long T2 = t(2);
    private static final long T3 = t(3);
    private static final long T4 = t(4);
    private static final long T5 = t(5);
    private static final long T9 = t(9);

    private static long t(int n) {
        return T0 + n * D;
    }

    // ---- allow rows: TokensAt(t) must be toks before AllowN(t, n) answers ok

    private record Allow(long t, double toks, int n, boolean ok) {
    }

    private static Allow allow(long t, double toks, int n, boolean ok) {
        return new Allow(t, toks, n, ok);
    }

    private static void run(RateLimiter lim, Allow... rows) {
        for (int i = 0; i < rows.length; i++) {
            Allow row = rows[i];
            assertThat(lim.tokensAt(row.t)).as("step %d: TokensAt(t%d)", i, dSince(row.t)).isEqualTo(row.toks);
            assertThat(lim.allowN(row.t, row.n)).as("step %d: AllowN(t%d, %d)", i, dSince(row.t), row.n)
                    .isEqualTo(row.ok);
        }
    }

    /** A duration in the nearest whole multiple of d, as Go's dFromDuration. */
    private static long dFromDuration(long nanos) {
        return (nanos + D / 2) / D;
    }

    private static long dSince(long t) {
        return dFromDuration(t - T0);
    }

    // ---- reserve rows: reserveN(t, n, max) must be ok, and act at act (in multiples of d) when ok

    private static Reservation runReserve(RateLimiter lim, long t, int n, long act, boolean ok) {
        return runReserveMax(lim, t, n, act, ok, RateLimiter.INF_DURATION);
    }

    private static Reservation runReserveMax(RateLimiter lim, long t, int n, long act, boolean ok, long max) {
        Reservation r = lim.reserveN(t, n, max);
        String call = "reserveN(t" + dSince(t) + ", " + n + ", " + max + ")";
        assertThat(r.ok()).as(call + ".ok").isEqualTo(ok);
        if (ok) {
            assertThat(dSince(t + r.delayFrom(t))).as(call + " acts at t").isEqualTo(dSince(act));
        }
        return r;
    }

    @Test
    @DisplayName("TestLimit")
    void testLimit() {
        assertThat(10.0).isNotEqualTo(RateLimiter.INF);
    }

    @Test
    @DisplayName("TestEvery")
    void testEvery() {
        long second = 1_000_000_000L;
        Object[][] cases = {
            {0L, RateLimiter.INF}, // no interval: no limit
            {-1L, RateLimiter.INF}, // a negative interval: no limit
            {1L, 1e9},
            {1_000L, 1e6},
            {1_000_000L, 1e3},
            {10_000_000L, 100.0},
            {100_000_000L, 10.0},
            {second, 1.0},
            {2 * second, 0.5},
            {(long) (2.5 * second), 0.4},
            {4 * second, 0.25},
            {10 * second, 0.1},
            {Long.MAX_VALUE, 1e9 / Long.MAX_VALUE}, // the longest interval: the smallest non-zero rate
        };
        for (Object[] c : cases) {
            double lim = RateLimiter.every((long) c[0]);
            double want = (double) c[1];
            // Go's closeEnough checks only one side of 1 ± 1e-9; this checks both.
            assertThat(Math.abs(lim / want - 1.0)).as("Every(%d ns) = %s want %s", c[0], lim, want)
                    .isLessThan(1e-9);
        }
        assertThat(RateLimiter.every(Duration.ofMillis(10))).isEqualTo(RateLimiter.every(10_000_000L));
    }

    @Test
    @DisplayName("TestLimiterBurst1")
    void testLimiterBurst1() {
        run(RateLimiter.create(10, 1),
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T0, 0, 1, false),
                allow(T1, 1, 1, true),
                allow(T1, 0, 1, false),
                allow(T1, 0, 1, false),
                allow(T2, 1, 2, false), // burst size is 1, so n=2 always fails
                allow(T2, 1, 1, true),
                allow(T2, 0, 1, false));
    }

    @Test
    @DisplayName("TestLimiterBurst3")
    void testLimiterBurst3() {
        run(RateLimiter.create(10, 3),
                allow(T0, 3, 2, true),
                allow(T0, 1, 2, false), // one token left, two asked for
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T1, 1, 4, false), // n=4 exceeds the burst of 3
                allow(T2, 2, 1, true),
                allow(T3, 2, 1, true),
                allow(T4, 2, 1, true),
                allow(T4, 1, 1, true),
                allow(T4, 0, 1, false),
                allow(T4, 0, 1, false),
                allow(T9, 3, 3, true), // refilled to the burst, not beyond
                allow(T9, 0, 0, true)); // zero tokens are always there while the bucket is not negative
    }

    @Test
    @DisplayName("TestLimiterJumpBackwards")
    void testLimiterJumpBackwards() {
        run(RateLimiter.create(10, 3),
                allow(T1, 3, 1, true), // start at t1
                allow(T0, 2, 1, true), // jump back to t0, two tokens remain
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T0, 0, 1, false),
                allow(T1, 1, 1, true), // got a token
                allow(T1, 0, 1, false),
                allow(T1, 0, 1, false),
                allow(T2, 1, 1, true), // got another token
                allow(T2, 0, 1, false),
                allow(T2, 0, 1, false));
    }

    @Test
    @DisplayName("TestLimiter_noTruncationErrors")
    void testLimiterNoTruncationErrors() {
        // golang/go#34861: converting elapsed time from the zero time must not truncate into a missing token.
        assertThat(RateLimiter.create(0.7692307692307693, 1).allow()).isTrue();
    }

    @Test
    @DisplayName("TestSimultaneousRequests")
    void testSimultaneousRequests() throws InterruptedException {
        // A very slowly refilled bucket of 5 and 15 concurrent callers: exactly 5 succeed. The clock is frozen so
        // that a slow machine cannot refill a token mid-test (Go's runs on the real clock, at 1 token/s).
        int limit = 1;
        int burst = 5;
        int numRequests = 15;
        RateLimiter lim = RateLimiter.builder(limit, burst).clock(() -> T0).build();
        AtomicInteger numOk = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(numRequests);
        for (int i = 0; i < numRequests; i++) {
            Thread thread = new Thread(() -> {
                if (lim.allow()) {
                    numOk.incrementAndGet();
                }
                done.countDown();
            });
            thread.start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(numOk).hasValue(burst);
    }

    @Test
    @DisplayName("TestLongRunningQPS")
    void testLongRunningQps() {
        // 5 s of fake time, a request every 2 ms (about 500/s offered against 100/s allowed).
        int limit = 100;
        int burst = 100;
        RateLimiter lim = RateLimiter.create(limit, burst);
        int numOk = 0;
        long start = T0;
        long end = start + 5_000_000_000L;
        long now = start;
        while (now < end) {
            if (lim.allowN(now, 1)) {
                numOk++;
            }
            now += 2_000_000L;
        }
        double ideal = burst + limit * (double) (now - start) / 1e9;
        // Never more than allowed, and very close to it.
        assertThat(numOk).isLessThanOrEqualTo((int) (ideal + 1));
        assertThat(numOk).isGreaterThanOrEqualTo((int) (0.999 * ideal));
    }

    @Test
    @DisplayName("TestSimpleReserve")
    void testSimpleReserve() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        runReserve(lim, T0, 2, T2, true); // the next 2 tokens take 2d
        runReserve(lim, T3, 2, T4, true); // by t3 one of them is there already
    }

    @Test
    @DisplayName("TestMix")
    void testMix() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 3, T1, false); // should return false because n > Burst
        runReserve(lim, T0, 2, T0, true);
        run(lim, allow(T1, 1, 2, false)); // not enough tokens - don't allow
        runReserve(lim, T1, 2, T2, true);
        run(lim, allow(T1, -1, 1, false)); // negative tokens - don't allow
        run(lim, allow(T3, 1, 1, true));
    }

    @Test
    @DisplayName("TestCancelInvalid")
    void testCancelInvalid() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 3, T3, false);
        r.cancelAt(T0); // should have no effect
        runReserve(lim, T0, 2, T2, true); // did not get extra tokens
    }

    @Test
    @DisplayName("TestCancelLast")
    void testCancelLast() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 2, T2, true);
        r.cancelAt(T1); // got 2 tokens back
        runReserve(lim, T1, 2, T2, true);
    }

    @Test
    @DisplayName("TestCancelTooLate")
    void testCancelTooLate() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 2, T2, true);
        r.cancelAt(T3); // too late to cancel - should have no effect
        runReserve(lim, T3, 2, T4, true);
    }

    @Test
    @DisplayName("TestCancel0Tokens")
    void testCancel0Tokens() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 1, T1, true);
        runReserve(lim, T0, 1, T2, true);
        r.cancelAt(T0); // got 0 tokens back
        runReserve(lim, T0, 1, T3, true);
    }

    @Test
    @DisplayName("TestCancel1Token")
    void testCancel1Token() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 2, T2, true);
        runReserve(lim, T0, 1, T3, true);
        r.cancelAt(T2); // got 1 token back
        runReserve(lim, T2, 2, T4, true);
    }

    @Test
    @DisplayName("TestCancelMulti")
    void testCancelMulti() {
        RateLimiter lim = RateLimiter.create(10, 4);
        runReserve(lim, T0, 4, T0, true);
        Reservation ra = runReserve(lim, T0, 3, T3, true);
        runReserve(lim, T0, 1, T4, true);
        Reservation rc = runReserve(lim, T0, 1, T5, true);
        rc.cancelAt(T1); // get 1 token back
        ra.cancelAt(T1); // get 2 tokens back, as if C was never reserved
        runReserve(lim, T1, 3, T5, true);
    }

    @Test
    @DisplayName("TestReserveJumpBack")
    void testReserveJumpBack() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T1, 2, T1, true); // start at t1
        runReserve(lim, T0, 1, T1, true); // should violate Limit,Burst
        runReserve(lim, T2, 2, T3, true);
        // burst size is 2, so n=3 always fails, and the state of lim should not be changed
        runReserve(lim, T0, 3, 0, false);
        runReserve(lim, T2, 1, T4, true);
        // the maxReserve is not enough so it fails, and the state of lim should not be changed
        runReserveMax(lim, T0, 2, 0, false, D);
        runReserve(lim, T2, 1, T5, true);
    }

    @Test
    @DisplayName("TestReserveJumpBackCancel")
    void testReserveJumpBackCancel() {
        RateLimiter lim = RateLimiter.create(10, 2);
        runReserve(lim, T1, 2, T1, true); // start at t1
        Reservation r = runReserve(lim, T1, 2, T3, true);
        runReserve(lim, T1, 1, T4, true);
        r.cancelAt(T0); // cancel at t0, get 1 token back
        runReserve(lim, T1, 2, T4, true); // should violate Limit,Burst
    }

    @Test
    @DisplayName("TestReserveSetLimit")
    void testReserveSetLimit() {
        RateLimiter lim = RateLimiter.create(5, 2);
        runReserve(lim, T0, 2, T0, true);
        runReserve(lim, T0, 2, T4, true);
        lim.setLimitAt(T2, 10);
        runReserve(lim, T2, 1, T4, true); // violates Limit and Burst
    }

    @Test
    @DisplayName("TestReserveSetBurst")
    void testReserveSetBurst() {
        RateLimiter lim = RateLimiter.create(5, 2);
        runReserve(lim, T0, 2, T0, true);
        runReserve(lim, T0, 2, T4, true);
        lim.setBurstAt(T3, 4);
        runReserve(lim, T0, 4, T9, true); // violates Limit and Burst
    }

    @Test
    @DisplayName("TestReserveSetLimitCancel")
    void testReserveSetLimitCancel() {
        RateLimiter lim = RateLimiter.create(5, 2);
        runReserve(lim, T0, 2, T0, true);
        Reservation r = runReserve(lim, T0, 2, T4, true);
        lim.setLimitAt(T2, 10);
        r.cancelAt(T2); // 2 tokens back
        runReserve(lim, T2, 2, T3, true);
    }

    @Test
    @DisplayName("TestReserveMax")
    void testReserveMax() {
        RateLimiter lim = RateLimiter.create(10, 2);
        long maxT = D;
        runReserveMax(lim, T0, 2, T0, true, maxT);
        runReserveMax(lim, T0, 1, T1, true, maxT); // reserve for close future
        runReserveMax(lim, T0, 1, T2, false, maxT); // time to act too far in the future
    }

    // ---- waits: Go's fake timers are a virtual-time scheduler, its context deadline our deadline

    /** A wait row: the wait's name, n, its deadline (or none), the delay in multiples of d, and success. */
    private record Wait(String name, int n, long deadline, long delayD, boolean ok) {
    }

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private static Wait wait(String name, int n, long deadline, long delayD, boolean ok) {
        return new Wait(name, n, deadline, delayD, ok);
    }

    private static RateLimiter virtual(VirtualTimeScheduler vts, double limit, int burst) {
        return RateLimiter.builder(limit, burst).clock(() -> vts.now(TimeUnit.NANOSECONDS)).scheduler(vts).build();
    }

    /**
     * Subscribes to the wait and runs virtual time to its end: it must succeed or fail as the row says, having
     * spent exactly the row's delay (Go allows scheduling slop; virtual time has none).
     */
    private static void runWait(VirtualTimeScheduler vts, RateLimiter lim, Wait w) {
        long start = vts.now(TimeUnit.NANOSECONDS);
        Mono<Void> wait = w.deadline == NO_DEADLINE ? lim.waitN(w.n) : lim.waitNUntil(w.n, w.deadline);
        AtomicReference<Long> endedAt = new AtomicReference<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        wait.subscribe(v -> { }, e -> {
            error.set(e);
            endedAt.set(vts.now(TimeUnit.NANOSECONDS));
        }, () -> endedAt.set(vts.now(TimeUnit.NANOSECONDS)));
        for (int i = 0; i < 1000 && endedAt.get() == null; i++) {
            vts.advanceTimeBy(Duration.ofNanos(D / 10));
        }
        assertThat(endedAt.get()).as("%s ended", w.name).isNotNull();
        assertThat(error.get() == null).as("%s succeeded (error: %s)", w.name, error.get()).isEqualTo(w.ok);
        if (!w.ok) {
            assertThat(error.get()).isInstanceOf(RateLimitedException.class);
        }
        assertThat(endedAt.get() - start).as("%s delay", w.name).isEqualTo(w.delayD * D);
    }

    @Test
    @DisplayName("TestWaitSimple")
    void testWaitSimple() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        // Go's first row waits on an already cancelled context. A Reactor subscriber cannot be cancelled before it
        // subscribes; the nearest thing is a deadline that has already passed, which fails at once the same way.
        runWait(vts, lim, wait("already-cancelled", 1, -1, 0, false));
        runWait(vts, lim, wait("exceed-burst-error", 4, NO_DEADLINE, 0, false));
        runWait(vts, lim, wait("act-now", 2, NO_DEADLINE, 0, true));
        runWait(vts, lim, wait("act-later", 3, NO_DEADLINE, 2, true));
    }

    @Test
    @DisplayName("TestWaitCancel")
    void testWaitCancel() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        runWait(vts, lim, wait("act-now", 2, NO_DEADLINE, 0, true)); // after this lim.tokens = 1
        // "will-cancel": n=3 waits 2d, and its subscriber cancels after d. A cancelled Mono signals nothing (Go
        // returns ctx.Err()); what matters is that it never completes and gives the tokens back.
        AtomicBoolean completed = new AtomicBoolean();
        Disposable willCancel = lim.waitN(3).subscribe(v -> { }, e -> { }, () -> completed.set(true));
        vts.schedule(willCancel::dispose, D, TimeUnit.NANOSECONDS);
        vts.advanceTimeBy(Duration.ofNanos(3 * D));
        assertThat(completed).as("will-cancel completed").isFalse();
        // should get 3 tokens back, and have lim.tokens = 2 at the cancel (3 at 3d)
        assertThat(lim.tokensAt(D)).isEqualTo(2.0);
        runWait(vts, lim, wait("act-now-after-cancel", 2, NO_DEADLINE, 0, true));
    }

    @Test
    @DisplayName("TestWaitTimeout")
    void testWaitTimeout() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        long deadline = vts.now(TimeUnit.NANOSECONDS) + D; // context.WithTimeout(ctx, d)
        runWait(vts, lim, wait("act-now", 2, deadline, 0, true));
        runWait(vts, lim, wait("w-timeout-err", 3, deadline, 0, false)); // needs 2d: fails at once
    }

    @Test
    @DisplayName("TestWaitInf")
    void testWaitInf() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, RateLimiter.INF, 0);
        runWait(vts, lim, wait("exceed-burst-no-error", 3, NO_DEADLINE, 0, true));
    }

    @Test
    @DisplayName("TestZeroLimit")
    void testZeroLimit() {
        RateLimiter r = RateLimiter.create(0, 1);
        assertThat(r.allow()).as("Limit(0, 1) want true when first used").isTrue();
        assertThat(r.allow()).as("Limit(0, 1) want false when already used").isFalse();
    }

    @Test
    @DisplayName("TestSetAfterZeroLimit")
    void testSetAfterZeroLimit() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 0, 1);
        // The limiter should start off full, so even though our rate limit is 0, our first request should be
        // allowed…
        assertThat(lim.allow()).isTrue();
        // …the token bucket is not being replenished though, so the second request should not succeed
        assertThat(lim.allow()).isFalse();
        lim.setLimit(10);
        // We set the limit to 10/s so expect to get another token in 100ms
        runWait(vts, lim, wait("wait-after-set-nonzero-after-zero", 1, NO_DEADLINE, 1, true));
    }

    @Test
    @DisplayName("TestTinyLimit")
    void testTinyLimit() {
        // golang/go#71154: the wait for a token at 1e-10/s overflowed into an early token.
        RateLimiter lim = RateLimiter.create(1e-10, 1);
        // The limiter starts with 1 burst token, so the first request should succeed
        assertThat(lim.allow()).isTrue();
        // The limiter should not have replenished the token bucket yet, so the second request should fail
        assertThat(lim.allow()).isFalse();
    }

    @Test
    @DisplayName("TestWaitTimeout (no state change)")
    void testWaitTimeoutLeavesTheLimiterUntouched() {
        // Not a Go test of its own, but Go's promise since golang/go#52584: a wait that fails changes nothing.
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        runWait(vts, lim, wait("act-now", 3, D, 0, true));
        double before = lim.tokens();
        runWait(vts, lim, wait("w-timeout-err", 3, D, 0, false)); // needs 3d, the deadline is d away
        assertThat(lim.tokens()).isEqualTo(before);
    }
}
