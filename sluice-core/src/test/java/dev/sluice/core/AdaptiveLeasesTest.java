package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.limits.NanoClock;
import dev.sluice.limits.adaptive.FixedLimit;
import dev.sluice.limits.adaptive.Gradient2Limit;
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
 * The adaptive lease sender on virtual time, fed scripted responses as the engine reports them: started, first
 * signal with its latency, terminated. No sleeping; the leases come from the sender's own timer on a
 * {@link VirtualTimeScheduler}.
 */
class AdaptiveLeasesTest {

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

    private AdaptiveLeases start(AdaptiveLeases sender) {
        subscription = sender.leases(vts).subscribe(sent::add);
        return sender;
    }

    private static Gradient2Limit gradient2() {
        return Gradient2Limit.builder().initialLimit(10).minLimit(1).maxLimit(50).build();
    }

    /**
     * Uses the whole of the last lease: its requests in batches of the current limit (so the service is busy),
     * each answered after {@code latencyMs}; then waits for the next lease and returns its rate in requests/s.
     */
    private double period(AdaptiveLeases sender, double latencyMs) {
        Lease lease = sent.get(sent.size() - 1);
        int left = lease.allowedRequests();
        while (left > 0) {
            int batch = Math.min(left, Math.max(1, sender.limit().limit()));
            for (int i = 0; i < batch; i++) {
                sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER);
            }
            for (int i = 0; i < batch; i++) {
                sender.onResponseStarted(RR, null, SignalType.ON_NEXT, (long) (latencyMs * MS), false);
                sender.onResponseTerminated(RR, null, SignalType.ON_COMPLETE);
            }
            left -= batch;
        }
        int before = sent.size();
        for (int ms = 0; ms < 2_000 && sent.size() == before; ms++) {
            vts.advanceTimeBy(Duration.ofMillis(1));
        }
        assertThat(sent).as("a new lease within 2 s").hasSize(before + 1);
        return rate(sent.get(before));
    }

    /** Requests per second a lease allows over its period (ttl = period * 1.25). */
    private static double rate(Lease lease) {
        return lease.allowedRequests() / (lease.ttl().toNanos() / 1.25 / 1e9);
    }

    @Test
    void aLatencyStepShrinksTheNextLeaseAtOnceAndRecoveryGrowsItBackCautiously() {
        AdaptiveLeases sender = start(AdaptiveLeases.builder(gradient2())
            .targetLatency(Duration.ofMillis(20)).clock(clock).build());
        assertThat(sent).as("the first lease at once").hasSize(1);

        double steady = 0;
        for (int i = 0; i < 10; i++) {
            double next = period(sender, 5);
            assertThat(next).as("grows or holds while fast").isGreaterThanOrEqualTo(steady * 0.99);
            steady = next;
        }
        assertThat(steady).isGreaterThan(rate(sent.get(0)));

        double stepped = period(sender, 50);
        assertThat(stepped).as("one slow period cuts the lease to under a tenth").isLessThan(steady / 10);
        assertThat(sender.limit().limit()).isEqualTo(1);

        double previous = stepped;
        for (int i = 0; i < 10; i++) {
            double next = period(sender, 5);
            assertThat(next).as("recovery: at most 1.5x the previous rate, period " + i)
                .isLessThanOrEqualTo(previous * 1.5 * 1.02 + 20);
            previous = next;
        }
        assertThat(previous).as("grown back well past the stepped lease").isGreaterThan(stepped * 10);
    }

    @Test
    void withoutATargetGradient2sOwnAverageJudgesTheStep() {
        AdaptiveLeases sender = start(AdaptiveLeases.builder(gradient2()).clock(clock).build());
        double steady = 0;
        for (int i = 0; i < 10; i++) {
            steady = period(sender, 5);
        }
        // Within the ~1500 slow samples of that period Gradient2's long-term average climbs to 50 ms and the limit
        // recovers its size: without a target a lasting slowdown becomes normal. The lease still shrinks with
        // the latency (Little's law at an unchanged concurrency), and at once.
        double stepped = period(sender, 50);
        assertThat(stepped).isLessThan(steady / 5);
        double recovered = stepped;
        for (int i = 0; i < 10; i++) {
            recovered = period(sender, 5);
        }
        assertThat(recovered).isGreaterThan(stepped * 5);
    }

    @Test
    void aLeaseLittleUsedDoesNotGrow() {
        AdaptiveLeases sender = start(AdaptiveLeases.builder(gradient2()).clock(clock).build());
        period(sender, 5);
        Lease used = sent.get(sent.size() - 1);
        // A single request in the next period: far less than half the lease.
        sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER);
        sender.onResponseStarted(RR, null, SignalType.ON_NEXT, 5 * MS, false);
        sender.onResponseTerminated(RR, null, SignalType.ON_COMPLETE);
        vts.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(rate(sent.get(sent.size() - 1))).isLessThanOrEqualTo(rate(used) * 1.01);
    }

    @Test
    void eachRequestIsCountedOnceAndReleasedOnce() {
        RecordingLimit limit = new RecordingLimit();
        AdaptiveLeases sender = AdaptiveLeases.builder(limit).targetLatency(Duration.ofMillis(20))
            .clock(clock).build();
        // a, b and c arrive; the lease turns c away (the engine reports it started, rejected, ended at once).
        sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER);
        sender.onRequestStarted(RequestType.REQUEST_STREAM, Unpooled.EMPTY_BUFFER);
        sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER);
        sender.onResponseStarted(RR, null, SignalType.ON_ERROR, 0, true);
        sender.onResponseTerminated(RR, null, SignalType.ON_ERROR);
        assertThat(sender.inFlight()).isEqualTo(2);
        // a answers slowly, b's stream starts fast and stays open.
        sender.onResponseStarted(RR, null, SignalType.ON_NEXT, 30 * MS, false);
        sender.onResponseTerminated(RR, null, SignalType.ON_COMPLETE);
        sender.onResponseStarted(RequestType.REQUEST_STREAM, null, SignalType.ON_NEXT, 2 * MS, false);
        assertThat(sender.inFlight()).isEqualTo(1);
        sender.onResponseTerminated(RequestType.REQUEST_STREAM, null, SignalType.ON_COMPLETE);
        assertThat(sender.inFlight()).isZero();
        // A fire-and-forget is counted and released, but its "latency" (before the handler ran) is no sample.
        sender.onRequestStarted(RequestType.FIRE_AND_FORGET, Unpooled.EMPTY_BUFFER);
        sender.onResponseStarted(RequestType.FIRE_AND_FORGET, null, SignalType.ON_COMPLETE, 0, false);
        sender.onResponseTerminated(RequestType.FIRE_AND_FORGET, null, SignalType.ON_COMPLETE);
        // A cancel before any answer: the requester gave up waiting, a drop.
        sender.onRequestStarted(RR, Unpooled.EMPTY_BUFFER);
        sender.onResponseStarted(RR, null, SignalType.CANCEL, 1 * MS, false);
        sender.onResponseTerminated(RR, null, SignalType.CANCEL);
        // A stray end (nothing in flight) does not drive the count negative.
        sender.onResponseTerminated(RR, null, SignalType.CANCEL);
        assertThat(sender.inFlight()).isZero();

        assertThat(limit.samples).containsExactly(
            "rtt=30 inFlight=2 dropped=true",
            "rtt=2 inFlight=1 dropped=false",
            "rtt=1 inFlight=1 dropped=true");
    }

    @Test
    void theFirstLeaseIsTheLimitPerMinTtlWithoutATargetAndLittlesLawAtTheTargetWithOne() {
        AdaptiveLeases plain = AdaptiveLeases.builder(gradient2()).clock(clock).build();
        assertThat(plain.nextLease(0)).isEqualTo(Lease.of(Duration.ofMillis(125), 10));
        AdaptiveLeases targeted = AdaptiveLeases.builder(gradient2()).targetLatency(Duration.ofMillis(10))
            .clock(clock).build();
        // period = 50 x 10 ms = 500 ms; 10 in flight at 10 ms each is 1000/s, so 500 per period.
        assertThat(targeted.nextLease(0)).isEqualTo(Lease.of(Duration.ofMillis(625), 500));
    }

    @Test
    void theFirstLeaseGoesAtOnceAndTheNextOnePeriodLaterOnTheGivenScheduler() {
        // No samples: each period is the min ttl (100 ms), each lease's ttl a quarter longer, and an unused lease
        // does not grow.
        StepVerifier.withVirtualTime(() -> {
            VirtualTimeScheduler virtual = VirtualTimeScheduler.get();
            return AdaptiveLeases.builder(gradient2()).clock(() -> virtual.now(TimeUnit.NANOSECONDS)).build()
                .leases(virtual);
        })
            .expectNext(Lease.of(Duration.ofMillis(125), 10))
            .expectNoEvent(Duration.ofMillis(99))
            .thenAwait(Duration.ofMillis(1))
            .expectNext(Lease.of(Duration.ofMillis(125), 10))
            .thenAwait(Duration.ofMillis(100))
            .expectNext(Lease.of(Duration.ofMillis(125), 10))
            .thenCancel()
            .verify(Duration.ofSeconds(5));
    }

    @Test
    void settingsAreCheckedWhenSet() {
        AdaptiveLeases.Builder b = AdaptiveLeases.builder(gradient2());
        assertThatThrownBy(() -> b.targetLatency(Duration.ZERO)).hasMessage("targetLatency <= 0: PT0S");
        assertThatThrownBy(() -> b.maxGrowth(1)).hasMessage("maxGrowth <= 1: 1.0");
        assertThatThrownBy(() -> b.ttl(Duration.ofSeconds(2), Duration.ofSeconds(1)))
            .hasMessageStartingWith("ttl bounds must satisfy");
    }

    /** The largest max ttl is 2^30-1 ms, as the Javadoc and the message say: its ttl, + 25%, fits 2^31-1 ms. */
    @Test
    void theLargestMaxTtlIsTwoToTheThirtyMinusOneMillisecondsAndItsLeaseFits() {
        long largest = (1L << 30) - 1;
        AdaptiveLeases.Builder b = AdaptiveLeases.builder(FixedLimit.of(1));
        assertThatThrownBy(() -> b.ttl(Duration.ofMillis(1), Duration.ofMillis(largest + 1)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("ttl bounds must satisfy 1 ms <= min <= max <= 2^30-1 ms: min=PT0.001S, max=PT298H15M"
                + "41.824S");
        AdaptiveLeases leases = b.ttl(Duration.ofMillis(largest), Duration.ofMillis(largest)).build();
        Lease lease = leases.nextLease(0);
        assertThat(lease.ttl().toMillis()).isEqualTo(largest + largest / 4).isLessThanOrEqualTo(Integer.MAX_VALUE);
    }

    /** A limit of 1 that writes down each sample in milliseconds. */
    private static final class RecordingLimit implements Limit {
        final List<String> samples = new ArrayList<>();

        @Override
        public void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped) {
            samples.add("rtt=" + rttNanos / MS + " inFlight=" + inFlight + " dropped=" + dropped);
        }

        @Override
        public int limit() {
            return 1;
        }

        @Override
        public void onChange(IntConsumer listener) {
        }
    }
}
