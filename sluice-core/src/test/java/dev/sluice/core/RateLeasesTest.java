package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.limits.NanoClock;
import dev.sluice.limits.adaptive.CubicLimit;
import dev.sluice.limits.adaptive.Limit;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.SignalType;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The rate lease sender on virtual time, fed requests as the engine reports them: the leases it sends each period,
 * the cut when a request runs late, the probes after it, and what the limit hears.
 */
class RateLeasesTest {

    private static final long MS = 1_000_000L;
    private static final RequestType RR = RequestType.REQUEST_RESPONSE;

    private final VirtualTimeScheduler vts = VirtualTimeScheduler.create();
    private final NanoClock clock = () -> vts.now(TimeUnit.NANOSECONDS);
    private final List<Lease> sent = new ArrayList<>();
    private Disposable subscription;

    @AfterEach
    void stop() {
        if (subscription != null) {
            subscription.dispose();
        }
        vts.dispose();
    }

    private RateLeases start(Limit limit) {
        RateLeases sender = RateLeases.builder(Duration.ofMillis(20)).limit(limit).clock(clock)
            .period(Duration.ofMillis(100)).probeInterval(Duration.ofMillis(200)).percentile(99).build();
        subscription = sender.leases(vts).subscribe(sent::add);
        vts.advanceTime();
        return sender;
    }

    private List<Object> requests(RateLeases sender, int n) {
        List<Object> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER));
        }
        return calls;
    }

    private static void answer(RateLeases sender, List<Object> calls, long latencyMillis) {
        for (Object call : calls) {
            sender.onResponseStarted(RR, call, SignalType.ON_NEXT, latencyMillis * MS, false);
            sender.onResponseTerminated(RR, call, SignalType.ON_COMPLETE);
        }
    }

    private void advanceMillis(long ms) {
        vts.advanceTimeBy(Duration.ofMillis(ms));
    }

    /**
     * Ten periods of ten requests each, answered after {@code latencyMillis}: the service took 100 requests in that
     * second.
     */
    private void aSecondAnsweredIn(RateLeases sender, long latencyMillis) {
        for (int p = 0; p < 10; p++) {
            List<Object> calls = requests(sender, 10);
            advanceMillis(latencyMillis);
            answer(sender, calls, latencyMillis);
            advanceMillis(100 - latencyMillis);
        }
    }

    private Lease last() {
        return sent.get(sent.size() - 1);
    }

    @Test
    void slowStartGrowsTheLeaseAsFastAsItIsUsed() {
        CubicLimit cubic = CubicLimit.builder().initialLimit(10).doubling(Duration.ofMillis(100)).build();
        RateLeases sender = start(cubic);
        List<Integer> limits = new ArrayList<>();
        for (int p = 0; p < 30; p++) {
            List<Object> calls = requests(sender, last().allowedRequests());
            advanceMillis(1);
            answer(sender, calls, 1);
            advanceMillis(99);
            limits.add(cubic.limit());
        }
        assertThat(limits).isSorted();
        // A doubling each 100 ms would reach 10 * 2^29; growing only while the rate taken over the last second is
        // at least half the limit holds it to about 1.25 times a period.
        assertThat(cubic.limit()).isBetween(1_000, 100_000);
        assertThat(last().ttl()).isEqualTo(Duration.ofMillis(125));
    }

    @Test
    void aLeaseUsedOnlyInPartStopsGrowingOncePastTwiceTheRateTaken() {
        CubicLimit cubic = CubicLimit.builder().initialLimit(10).doubling(Duration.ofMillis(100)).build();
        RateLeases sender = start(cubic);
        for (int p = 0; p < 30; p++) {
            answer(sender, requests(sender, Math.min(1, last().allowedRequests())), 1);   // 10 a second
            advanceMillis(100);
        }
        // It grows while 10 a second is at least half of it: 10, 20, then one last doubling to 40, and no further.
        assertThat(cubic.limit()).isEqualTo(40);
    }

    @Test
    void aRequestUnansweredPastTheTargetCutsTheLeaseAndBacksOffFromWhatWasAnsweredInTime() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        aSecondAnsweredIn(sender, 5);
        assertThat(last().allowedRequests()).isEqualTo(10);
        requests(sender, 10);                  // never answered in time
        advanceMillis(30);                     // past the target and one slot: 20 + 2.5 ms
        requests(sender, 1);                   // the next request finds the oldest slot late
        advanceMillis(1);
        assertThat(last().allowedRequests()).isZero();
        assertThat(sender.probing()).isTrue();
        assertThat(limit.drops).containsExactly(90);   // answered in time in the second before the late ones
    }

    @Test
    void withoutNewRequestsThePeriodFindsTheLateOnes() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        aSecondAnsweredIn(sender, 5);
        requests(sender, 5);
        advanceMillis(100);                    // the tick 100 ms later: past the 20 ms target and a 2.5 ms slot
        assertThat(limit.drops).containsExactly(90);    // answered in time in the second before them
        assertThat(last().allowedRequests()).isZero();
    }

    @Test
    void theFirstSecondOfTrafficIsNotJudged() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        List<Object> cold = requests(sender, 5); // a cold start: the first requests are slow
        advanceMillis(100);
        answer(sender, cold, 90);
        assertThat(limit.drops).isEmpty();
        assertThat(last().allowedRequests()).isEqualTo(10);
        assertThat(sender.probing()).isFalse();
        advanceMillis(900);
        requests(sender, 2);
        advanceMillis(100);
        assertThat(limit.drops).hasSize(1);
    }

    @Test
    void aLimitUnderOneRequestPerPeriodLeasesSomePeriodsNothing() {
        RateLeases sender = start(new RecordingLimit(4));
        advanceMillis(900);
        // 0.4 a period, the fractions carried: four requests in the second, as the limit says.
        assertThat(sent).extracting(Lease::allowedRequests).containsExactly(0, 0, 1, 0, 1, 0, 0, 1, 0, 1);
    }

    @Test
    void responsesSlowerThanTheTargetAreLateToo() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        aSecondAnsweredIn(sender, 5);
        List<Object> calls = requests(sender, 2);
        advanceMillis(3);
        sender.onResponseStarted(RR, calls.get(0), SignalType.ON_NEXT, 23 * MS, false);
        sender.onResponseStarted(RR, calls.get(1), SignalType.CANCEL, 3 * MS, false);
        advanceMillis(1);
        assertThat(limit.drops).hasSize(1);
        assertThat(last().allowedRequests()).isZero();
    }

    @Test
    void lateByLessThanOneSlotIsNotJudged() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        for (int p = 0; p < 10; p++) {
            List<Object> calls = requests(sender, 10);
            advanceMillis(22);
            answer(sender, calls, 22);          // the target is 20 ms, a slot 2.5 ms
            advanceMillis(78);
        }
        assertThat(limit.drops).isEmpty();
    }

    @Test
    void oneLateRequestInAHundredIsWithinTheNinetyNinthPercentile() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        for (int p = 0; p < 30; p++) {
            List<Object> calls = requests(sender, 10);
            advanceMillis(5);
            answer(sender, calls.subList(0, 9), 5);
            answer(sender, calls.subList(9, 10), p % 10 == 9 ? 23 : 5);   // one late per second
            advanceMillis(95);
        }
        assertThat(limit.drops).isEmpty();
        assertThat(last().allowedRequests()).isEqualTo(10);
        List<Object> calls = requests(sender, 10);
        advanceMillis(5);
        answer(sender, calls, 23);              // a second and a third within the second: over 1%
        assertThat(limit.drops).hasSize(1);
    }

    @Test
    void probesGoOneAtATimeEachLaterThanTheLastUntilOneComesBackInTimeThenThePeriodicLeasesResume() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        aSecondAnsweredIn(sender, 5);
        List<Object> late = requests(sender, 10);
        advanceMillis(30);
        requests(sender, 1);
        advanceMillis(1);
        int cut = sent.size();
        advanceMillis(300);                    // the first tick 200 ms after the cut
        assertThat(sent.subList(cut, sent.size())).extracting(Lease::allowedRequests).containsExactly(1);
        List<Object> probe = requests(sender, 1);
        answer(sender, probe, 40);             // too slow: still probing
        answer(sender, late, 400);             // the late ones come back: part of the same overload
        advanceMillis(300);
        assertThat(sent.subList(cut, sent.size())).as("the next probe waits twice as long").hasSize(1);
        advanceMillis(100);
        assertThat(sender.probing()).isTrue();
        assertThat(sent.subList(cut, sent.size())).extracting(Lease::allowedRequests).containsExactly(1, 1);
        answer(sender, requests(sender, 1), 3);
        advanceMillis(100);
        assertThat(sender.probing()).isFalse();
        assertThat(last().allowedRequests()).isEqualTo(10);
        assertThat(limit.drops).hasSize(1);
    }

    @Test
    void rejectedRequestsAreNeitherTakenNorLate() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = start(limit);
        for (Object call : requests(sender, 7)) {
            sender.onResponseStarted(RR, call, SignalType.ON_ERROR, 0, true);
            sender.onResponseTerminated(RR, call, SignalType.ON_ERROR);
        }
        answer(sender, requests(sender, 3), 2);
        advanceMillis(200);
        assertThat(limit.drops).isEmpty();
        assertThat(limit.rates).first().isEqualTo(30);   // 3 accepted in 100 ms
        assertThat(sender.inFlight()).isZero();
    }

    @Test
    void theFractionOfARateIsCarriedToTheNextLease() {
        RateLeases sender = start(new RecordingLimit(15));
        advanceMillis(900);
        assertThat(sent).extracting(Lease::allowedRequests).containsExactly(1, 2, 1, 2, 1, 2, 1, 2, 1, 2);
    }

    private RateLeases startEstimating(Limit limit) {
        RateLeases sender = RateLeases.builder().limit(limit).clock(clock).period(Duration.ofMillis(100)).build();
        subscription = sender.leases(vts).subscribe(sent::add);
        vts.advanceTime();
        return sender;
    }

    @Test
    void withoutATargetTheFirstSecondOfAnswersSetsAProvisionalOneTheNextTheUsual() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = startEstimating(limit);
        assertThat(sender.target()).isNull();
        aSecondAnsweredIn(sender, 5);
        advanceMillis(100);                    // the tick that ends the first second of answers
        // four times 5 ms, read from a histogram bucket at most an eighth wide
        assertThat(sender.target()).isBetween(Duration.ofMillis(20), Duration.ofMillis(23));
        aSecondAnsweredIn(sender, 5);
        assertThat(sender.target()).isBetween(Duration.ofMillis(10), Duration.ofMillis(12));   // twice
        assertThat(limit.drops).isEmpty();
        requests(sender, 5);
        advanceMillis(100);                    // unanswered past the target and a slot
        assertThat(limit.drops).hasSize(1);
        assertThat(last().allowedRequests()).isZero();
    }

    @Test
    void withoutATargetAServiceThatGotSlowerForGoodIsFollowedOnceItsProbesStayLateThroughTheirBackoff() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = startEstimating(limit);
        aSecondAnsweredIn(sender, 5);
        advanceMillis(100);                    // a provisional target, then the usual one
        aSecondAnsweredIn(sender, 5);
        assertThat(sender.target()).isBetween(Duration.ofMillis(10), Duration.ofMillis(12));
        List<Object> calls = requests(sender, 10);
        advanceMillis(100);                    // the service now takes 50 ms, whatever its load
        answer(sender, calls, 50);
        assertThat(sender.probing()).isTrue();
        int handled = sent.size();
        List<Integer> probeWaits = new ArrayList<>();
        long since = vts.now(TimeUnit.MILLISECONDS);
        for (int t = 0; t < 60 && sender.probing(); t++) {
            if (sent.size() > handled && last().allowedRequests() == 1) {
                handled = sent.size();
                probeWaits.add((int) (vts.now(TimeUnit.MILLISECONDS) - since));
                since = vts.now(TimeUnit.MILLISECONDS);
                List<Object> probe = requests(sender, 1);
                advanceMillis(50);
                answer(sender, probe, 50);     // alone on the service, and still 50 ms
                advanceMillis(50);
            } else {
                advanceMillis(100);
            }
        }
        assertThat(sender.probing()).isFalse();
        assertThat(sender.target()).isEqualTo(Duration.ofMillis(100));     // twice the late probes' 50 ms
        // Probes late through the backoff (the first after a period of 100 ms, then 50 ms doubling) and four at the
        // longest wait, 16 * 50 ms: the target followed as the fourth of those went out, and it came back in time
        assertThat(probeWaits).containsExactly(100, 100, 200, 400, 800, 800, 800, 800);
        assertThat(last().allowedRequests()).isPositive();
    }

    @Test
    void withoutATargetASlowServiceIsNotHeldBackButOneBreakingAwayIs() {
        RecordingLimit limit = new RecordingLimit(100);
        RateLeases sender = startEstimating(limit);
        for (int s = 0; s < 3; s++) {
            aSecondAnsweredIn(sender, 60);
        }
        assertThat(sender.target()).isBetween(Duration.ofMillis(120), Duration.ofMillis(135));
        assertThat(limit.drops).isEmpty();
        assertThat(last().allowedRequests()).isEqualTo(10);
        List<Object> calls = requests(sender, 10);
        advanceMillis(400);                    // the service breaks away: 400 ms, over three times its usual p99
        answer(sender, calls, 400);
        assertThat(limit.drops).hasSize(1);
    }

    @Test
    void settingsAreCheckedWhenSetAndTheLeasesSubscribedOnce() {
        assertThatThrownBy(() -> RateLeases.builder(Duration.ZERO))
            .hasMessage("targetLatency must be > 0, got PT0S");
        assertThatThrownBy(() -> RateLeases.builder(null)).hasMessage("targetLatency must be > 0, got null");
        assertThatThrownBy(() -> RateLeases.builder(Duration.ofMillis(20)).period(Duration.ofNanos(10)))
            .hasMessage("period must be between 1 ms and 2^30-1 ms, got PT0.00000001S");
        RateLeases sender = start(new RecordingLimit(10));
        StepVerifier.create(sender.leases(vts))
            .expectErrorMessage("RateLeases.leases() is subscribed to already")
            .verify(Duration.ofSeconds(5));
    }

    /** A limit that stays where it is told and records what it hears. */
    private static final class RecordingLimit implements Limit {
        final int value;
        final List<Integer> drops = new ArrayList<>();
        final List<Integer> rates = new ArrayList<>();

        RecordingLimit(int value) {
            this.value = value;
        }

        @Override
        public void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped) {
            (dropped ? drops : rates).add(inFlight);
        }

        @Override
        public int limit() {
            return value;
        }

        @Override
        public void onChange(IntConsumer listener) {
        }
    }
}
