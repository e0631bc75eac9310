package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The edge cases of x/time/rate as the research notes checked them against Go v0.16.0, and the Java-side
 * additions: argument checks, waits on virtual time, concurrent use.
 */
class RateLimiterTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    /** Any instant works; a negative one checks that nothing assumes nanoTime() is positive. */
    private static final long T0 = -123_456_789_000L;

    private static RateLimiter limiter(double perSecond, int burst) {
        return RateLimiter.create(perSecond, burst);
    }

    @Test
    void zeroLimitAllowsTheInitialBurstThenNothing() {
        RateLimiter lim = limiter(0, 1);
        assertThat(lim.allowN(T0, 1)).isTrue();
        assertThat(lim.allowN(T0 + 1000 * SECOND, 1)).isFalse();
        // A reservation is still OK, but never comes, and it takes the token: Go mutates here.
        Reservation r = lim.reserveN(T0, 1);
        assertThat(r.ok()).isTrue();
        assertThat(r.delayFrom(T0)).isEqualTo(RateLimiter.INF_DURATION);
        assertThat(lim.tokensAt(T0)).isEqualTo(-1.0);
    }

    @Test
    void zeroBurstAndZeroLimitRejectAllButNothing() {
        RateLimiter lim = limiter(0, 0);
        assertThat(lim.allowN(T0, 1)).isFalse();
        assertThat(lim.allowN(T0, 0)).isTrue();
        assertThat(lim.reserveN(T0, 1).ok()).isFalse();
        StepVerifier.create(lim.waitNUntil(T0, 1, T0 + SECOND))
                .expectErrorSatisfies(e -> assertThat(e)
                        .isInstanceOf(RateLimitedException.class)
                        .hasMessage("n > burst: n=1, burst=0"))
                .verify();
    }

    @Test
    void infiniteLimitAllowsEverythingAndTouchesNothing() {
        RateLimiter lim = limiter(RateLimiter.INF, 0);
        assertThat(lim.allowN(T0, 5)).isTrue();
        Reservation r = lim.reserveN(T0, 100);
        assertThat(r.ok()).isTrue();
        assertThat(r.delayFrom(T0)).isZero();
        StepVerifier.create(lim.waitNUntil(T0, 3, T0)).verifyComplete();

        RateLimiter three = limiter(RateLimiter.INF, 3);
        assertThat(three.allowN(T0, 10)).isTrue();
        three.setLimitAt(T0, 1);
        assertThat(three.tokensAt(T0)).isEqualTo(3.0);
        assertThat(RateLimiter.create(Double.POSITIVE_INFINITY, 0).limit()).isEqualTo(RateLimiter.INF);
    }

    @Test
    void reservationOfAnInfiniteLimitRestoresAllTokensOnceTheLimitIsFinite() {
        // Go's quirk: the reservation kept limit 0, so a cancel restores its n tokens in full.
        RateLimiter lim = limiter(RateLimiter.INF, 5);
        Reservation r = lim.reserveN(T0, 3);
        lim.setLimitAt(T0, 1);
        assertThat(lim.allowN(T0, 5)).isTrue();
        r.cancelAt(T0);
        assertThat(lim.tokensAt(T0)).isEqualTo(3.0);
    }

    @Test
    void shrinkingTheBurstCapsTheTokensOnTheNextRead() {
        RateLimiter lim = limiter(10, 10);
        lim.setBurstAt(T0, 2);
        assertThat(lim.tokensAt(T0)).isEqualTo(2.0);
        assertThat(lim.allowN(T0, 2)).isTrue();
        assertThat(lim.allowN(T0, 1)).isFalse();
    }

    @Test
    void growingTheBurstKeepsTheTokensUntilTheyRefill() {
        RateLimiter lim = limiter(10, 2);
        lim.setBurstAt(T0, 10);
        assertThat(lim.tokensAt(T0)).isEqualTo(2.0);
        assertThat(lim.tokensAt(T0 + SECOND)).isEqualTo(10.0);
    }

    @Test
    void reservationsQueueBehindEachOther() {
        RateLimiter two = limiter(10, 2);
        assertThat(two.reserveN(T0, 2).delayFrom(T0)).isZero();
        assertThat(two.reserveN(T0, 2).delayFrom(T0)).isEqualTo(200 * MS);
        assertThat(two.tokensAt(T0)).isEqualTo(-2.0);
        // Zero tokens are not allowed while the bucket is negative.
        assertThat(two.allowN(T0, 0)).isFalse();

        RateLimiter one = limiter(10, 1);
        for (int i = 0; i < 4; i++) {
            assertThat(one.reserveN(T0, 1).delayFrom(T0)).isEqualTo(i * 100 * MS);
        }
        assertThat(one.tokensAt(T0)).isEqualTo(-3.0);
    }

    @Test
    void tinyLimitNeverOverflowsIntoAnEarlyToken() {
        RateLimiter lim = limiter(1e-10, 1);
        assertThat(lim.allowN(T0, 1)).isTrue();
        assertThat(lim.allowN(T0 + SECOND, 1)).isFalse();
        Reservation r = lim.reserveN(T0, 1);
        assertThat(r.ok()).isTrue();
        assertThat(r.delayFrom(T0)).isEqualTo(RateLimiter.INF_DURATION);
    }

    @Test
    void aRaisedLimitLeavesOldReservationsAlone() {
        RateLimiter lim = limiter(1, 1);
        assertThat(lim.allowN(T0, 1)).isTrue();
        Reservation old = lim.reserveN(T0, 1);
        lim.setLimitAt(T0, 100);
        assertThat(old.delayFrom(T0)).isEqualTo(SECOND);
        assertThat(lim.reserveN(T0, 1).delayFrom(T0)).isEqualTo(20 * MS);
    }

    @Test
    void delayFromCountsDownAndNeverGoesNegative() {
        RateLimiter lim = limiter(10, 1);
        lim.allowN(T0, 1);
        Reservation r = lim.reserveN(T0, 1);
        assertThat(r.delayFrom(T0 - SECOND)).isEqualTo(SECOND + 100 * MS);
        assertThat(r.delayFrom(T0 + 40 * MS)).isEqualTo(60 * MS);
        assertThat(r.delayFrom(T0 + SECOND)).isZero();
        assertThat(lim.reserveN(T0, 2).delayFrom(T0)).as("n > burst").isEqualTo(RateLimiter.INF_DURATION);
    }

    @Test
    void infiniteWaitsAreNotSaturatedBeforeTheyAreSubtracted() {
        // Go keeps now + InfDuration exactly; a saturated instant would make the delay depend on where T lies.
        long t = 5 * SECOND;
        RateLimiter lim = limiter(0, 1);
        lim.allowN(t, 1);
        Reservation r = lim.reserveN(t, 1);
        assertThat(r.delayFrom(t + SECOND)).isEqualTo(Long.MAX_VALUE - SECOND);
        assertThat(r.delayFrom(t - SECOND)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void maxWaitBoundsAReservationAndARefusalChangesNothing() {
        RateLimiter lim = limiter(10, 2);
        assertThat(lim.reserveN(T0, 2, 100 * MS).ok()).isTrue();
        assertThat(lim.reserveN(T0, 1, 100 * MS).delayFrom(T0)).isEqualTo(100 * MS);
        double before = lim.tokensAt(T0);
        assertThat(lim.reserveN(T0, 1, 100 * MS).ok()).isFalse();
        assertThat(lim.tokensAt(T0)).isEqualTo(before);
        assertThat(lim.reserveN(T0, 1, 200 * MS).delayFrom(T0)).isEqualTo(200 * MS);
    }

    @Test
    void rejectsBadArgumentsQuotingThem() {
        RateLimiter lim = limiter(10, 2);
        assertThatThrownBy(() -> lim.allowN(T0, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n < 0: -1");
        assertThatThrownBy(() -> lim.reserveN(T0, -3)).hasMessage("n < 0: -3");
        assertThatThrownBy(() -> lim.waitN(-2)).hasMessage("n < 0: -2");
        assertThatThrownBy(() -> lim.setBurstAt(T0, -1)).hasMessage("burst < 0: -1");
        assertThatThrownBy(() -> lim.setLimitAt(T0, -1)).hasMessage("limit < 0 or NaN: -1.0");
        assertThatThrownBy(() -> RateLimiter.create(Double.NaN, 1)).hasMessage("limit < 0 or NaN: NaN");
        assertThatThrownBy(() -> RateLimiter.create(1, -5)).hasMessage("burst < 0: -5");
        assertThat(lim.tokensAt(T0)).as("a rejected call changes nothing").isEqualTo(2.0);
    }

    @Test
    void cancellingTwiceRestoresTwiceAsGoDoes() {
        RateLimiter lim = limiter(10, 3);
        lim.allowN(T0, 3);
        Reservation r = lim.reserveN(T0, 1);
        r.cancelAt(T0);
        assertThat(lim.tokensAt(T0)).isEqualTo(0.0);
        // The second cancel finds the latest event moved back before r, and reads that as 2 tokens to restore.
        r.cancelAt(T0);
        assertThat(lim.tokensAt(T0)).isEqualTo(2.0);
    }

    @Test
    void durationFormsMatchTheNanosecondForms() {
        long[] now = {T0};
        RateLimiter lim = RateLimiter.builder(10, 1).clock(() -> now[0]).build();
        Reservation first = lim.reserveN(1, Duration.ZERO);
        assertThat(first.delay()).isEqualTo(Duration.ZERO);
        // A token every 100 ms: the next one is 100 ms away, more than a 99 ms wait allows.
        assertThat(lim.reserveN(1, Duration.ofMillis(99)).ok()).isFalse();
        Reservation second = lim.reserveN(1, Duration.ofMillis(100));
        assertThat(second.delay()).isEqualTo(Duration.ofMillis(100));
        assertThat(second.delayNanos()).isEqualTo(100 * MS);
        assertThat(lim.reserveN(5, Duration.ofDays(1)).delay()).isEqualTo(Duration.ofNanos(RateLimiter.INF_DURATION));
    }

    @Test
    void aTimeoutIsADurationAndADeadlineAnInstant() {
        long[] now = {T0};
        RateLimiter lim = RateLimiter.builder(10, 1).clock(() -> now[0]).build();
        assertThat(lim.allow()).isTrue();
        // The next token is 100 ms away: a 10 ms timeout is too short, a deadline 100 ms from now is not.
        StepVerifier.create(lim.waitN(1, Duration.ofMillis(10)))
                .expectErrorMessage("tokens not available within timeout: n=1, timeout=10000000ns").verify();
        StepVerifier.create(lim.waitNUntil(1, T0 + 10 * MS))
                .expectErrorMessage("tokens not available before deadline: n=1, timeLeft=10000000ns").verify();
        StepVerifier.create(lim.waitN(1, Duration.ofMillis(-1)))
                .expectErrorMessage("timeout < 0: -1000000ns").verify();
        StepVerifier.create(lim.waitNUntil(1, T0 - 5))
                .expectErrorMessage("deadline passed: 5ns ago").verify();
        now[0] += 100 * MS;
        StepVerifier.create(lim.waitNUntil(1, T0 + 100 * MS)).verifyComplete();
    }

    @Test
    void shortFormsReadTheClock() {
        long[] now = {T0};
        RateLimiter lim = RateLimiter.builder(10, 1).clock(() -> now[0]).build();
        assertThat(lim.allow()).isTrue();
        assertThat(lim.allow()).isFalse();
        assertThat(lim.tokens()).isEqualTo(0.0);
        now[0] += 50 * MS;
        assertThat(lim.tokens()).isEqualTo(0.5);
        Reservation r = lim.reserve();
        assertThat(r.delayNanos()).isEqualTo(50 * MS);
        now[0] += 20 * MS;
        assertThat(r.delayNanos()).isEqualTo(30 * MS);
        r.cancel();
        assertThat(lim.tokens()).isEqualTo(0.7, org.assertj.core.data.Offset.offset(1e-12));
        lim.setLimit(20);
        lim.setBurst(4);
        assertThat(lim.limit()).isEqualTo(20.0);
        assertThat(lim.burst()).isEqualTo(4);
        assertThat(lim.allowN(1)).isFalse();
        now[0] += 15 * MS;
        assertThat(lim.allowN(1)).isTrue();
    }

    @Test
    void everyIsTheReciprocalOfTheInterval() {
        assertThat(RateLimiter.every(Duration.ofMillis(100))).isEqualTo(10.0);
        assertThat(RateLimiter.every(Duration.ZERO)).isEqualTo(RateLimiter.INF);
        assertThat(RateLimiter.every(-1)).isEqualTo(RateLimiter.INF);
    }

    // ---- waits, on virtual time

    private static RateLimiter virtual(VirtualTimeScheduler vts, double perSecond, int burst) {
        return RateLimiter.builder(perSecond, burst)
                .clock(() -> vts.now(TimeUnit.NANOSECONDS))
                .scheduler(vts)
                .build();
    }

    /** What a subscriber to a wait saw: completion, or the error. */
    private static final class Outcome {
        final AtomicBoolean completed = new AtomicBoolean();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        Disposable subscription;

        static Outcome of(Mono<Void> wait) {
            Outcome o = new Outcome();
            o.subscription = wait.subscribe(v -> { }, o.error::set, () -> o.completed.set(true));
            return o;
        }

        boolean pending() {
            return !completed.get() && error.get() == null;
        }
    }

    @Test
    void waitCompletesAfterTheReservationsDelay() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        assertThat(Outcome.of(lim.waitN(2, Duration.ofSeconds(1))).completed).isTrue();
        Outcome later = Outcome.of(lim.waitN(3, Duration.ofSeconds(1)));
        vts.advanceTimeBy(Duration.ofMillis(199));
        assertThat(later.pending()).as("pending at 199ms").isTrue();
        vts.advanceTimeBy(Duration.ofMillis(1));
        assertThat(later.completed).as("completed at 200ms").isTrue();
    }

    @Test
    void waitThatWouldMissTheDeadlineFailsAtOnceAndTakesNothing() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 1, 1);
        assertThat(lim.allow()).isTrue();
        double before = lim.tokens();
        Outcome refused = Outcome.of(lim.waitN(1, Duration.ofMillis(100)));
        assertThat(refused.error.get())
                .as("failed with no time passing")
                .isInstanceOf(RateLimitedException.class)
                .hasMessage("tokens not available within timeout: n=1, timeout=100000000ns");
        assertThat(lim.tokens()).as("the limiter is untouched").isEqualTo(before);
        // A wait with room for the next token gets it when it comes, a second later.
        Outcome admitted = Outcome.of(lim.waitNUntil(1, vts.now(TimeUnit.NANOSECONDS) + SECOND));
        vts.advanceTimeBy(Duration.ofMillis(999));
        assertThat(admitted.pending()).isTrue();
        vts.advanceTimeBy(Duration.ofMillis(1));
        assertThat(admitted.completed).isTrue();
    }

    @Test
    void waitBeyondTheBurstOrPastTheDeadlineFailsAtOnce() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 1);
        StepVerifier.create(lim.waitN(2))
                .expectErrorMessage("n > burst: n=2, burst=1")
                .verify();
        StepVerifier.create(lim.waitNUntil(T0, 1, T0 - 1))
                .expectErrorMessage("deadline passed: 1ns ago")
                .verify();
        // A deadline of now takes only tokens that are there.
        StepVerifier.create(lim.waitNUntil(T0, 1, T0)).verifyComplete();
        StepVerifier.create(lim.waitNUntil(T0, 1, T0)).expectError(RateLimitedException.class).verify();
        assertThat(lim.tokensAt(T0)).isEqualTo(0.0);
    }

    @Test
    void cancellingAWaitGivesTheTokensBack() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 3);
        StepVerifier.create(lim.waitN(2)).verifyComplete();
        Outcome waiting = Outcome.of(lim.waitN(3));
        assertThat(lim.tokens()).isEqualTo(-2.0);
        vts.advanceTimeBy(Duration.ofMillis(100));
        waiting.subscription.dispose();
        // At t=100ms: 1 token was there, 1 accumulated, and all 3 reserved come back.
        assertThat(lim.tokens()).isEqualTo(2.0);
        vts.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(waiting.pending()).as("the cancelled wait never completes").isTrue();
    }

    @Test
    void waitForTokensThatNeverComeLastsUntilCancelled() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 0, 1);
        assertThat(lim.allow()).isTrue();
        // Without a deadline Go reserves at a zero rate too, with an infinite delay.
        Outcome waiting = Outcome.of(lim.waitN(1));
        assertThat(lim.tokens()).isEqualTo(-1.0);
        vts.advanceTimeBy(Duration.ofDays(365 * 100));
        assertThat(waiting.pending()).isTrue();
        waiting.subscription.dispose();
        assertThat(lim.tokens()).as("the token came back").isEqualTo(0.0);
        // With a deadline it fails at once.
        assertThat(Outcome.of(lim.waitN(1, Duration.ofDays(1))).error.get()).isInstanceOf(RateLimitedException.class);
    }

    @Test
    void cancellingAfterTheWaitCompletedGivesNothingBack() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 1);
        assertThat(lim.allow()).isTrue();
        Outcome waiting = Outcome.of(lim.waitN(1));
        vts.advanceTimeBy(Duration.ofMillis(100));
        assertThat(waiting.completed).isTrue();
        waiting.subscription.dispose();
        // The token was used at 100ms, exactly its time to act: a cancel now would still restore it in Go.
        assertThat(lim.tokens()).isEqualTo(0.0);
    }

    @Test
    void waitWithAFixedTimeReservesAtThatTime() {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        RateLimiter lim = virtual(vts, 10, 1);
        // The clock reads 0, but the reservation is made at 1s on a bucket last used at 0.
        assertThat(lim.allowN(0, 1)).isTrue();
        StepVerifier.create(lim.waitNUntil(SECOND, 1, SECOND)).verifyComplete();
        assertThat(lim.tokensAt(SECOND)).isEqualTo(0.0);
    }
}
