package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.ApplicationErrorException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RejectedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

@Timeout(60)
class RampGeneratorTest {

    /**
     * A target whose n-th request (from 0, in send order) succeeds, is rejected, is never answered, or fails, by
     * n mod 4; never-answered requests count their cancels.
     */
    private static final class FourOutcomes implements RSocket {
        final AtomicInteger received = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();

        @Override
        public Mono<Payload> requestResponse(Payload payload) {
            payload.release();
            return switch (received.getAndIncrement() % 4) {
                case 0 -> Mono.just(Payload.create("ok"));
                case 1 -> Mono.error(new RejectedException("rate_limited"));
                case 2 -> Mono.<Payload>never().doOnCancel(cancelled::incrementAndGet);
                default -> Mono.error(new ApplicationErrorException("boom"));
            };
        }
    }

    /**
     * Steps of 20 and 40 requests (40/s then 80/s for 0.5 s), each a multiple of 4: every step holds each outcome a
     * quarter of the time, and its counts add up to what it sent.
     */
    @Test
    void eachRequestHasExactlyOneOutcomeCountedInTheStepItWasDueIn() {
        FourOutcomes target = new FourOutcomes();
        List<StepStats> reported = new CopyOnWriteArrayList<>();

        RampSummary s = RampGenerator.create(target).ramp(new Ramp(40, 80, 40, Duration.ofMillis(500)))
            .timeout(Duration.ofMillis(100)).onStep(reported::add).run();

        assertThat(s.steps()).hasSize(2);
        assertThat(reported).as("the listener saw each step, in order").isEqualTo(s.steps());
        long[][] expected = {
            // step, offered rate, sent, each outcome
            {0, 40, 20, 5},
            {1, 80, 40, 10},
        };
        for (long[] row : expected) {
            StepStats step = s.steps().get((int) row[0]);
            assertThat(step.step()).isEqualTo(row[0]);
            assertThat(step.offeredRate()).isEqualTo(row[1]);
            assertThat(step.duration()).isEqualTo(Duration.ofMillis(500));
            assertThat(step.sent()).as("step %d sent", row[0]).isEqualTo(row[2]);
            assertThat(step.successes()).as("step %d successes", row[0]).isEqualTo(row[3]);
            assertThat(step.rejected()).as("step %d rejected", row[0]).isEqualTo(row[3]);
            assertThat(step.timedOut()).as("step %d timed out", row[0]).isEqualTo(row[3]);
            assertThat(step.failed()).as("step %d failed", row[0]).isEqualTo(row[3]);
            assertThat(step.successes() + step.rejected() + step.timedOut() + step.failed()).isEqualTo(step.sent());
            assertThat(step.rejectionsByMessage()).isEqualTo(Map.of("rate_limited", row[3]));
            assertThat(step.failuresByCause()).isEqualTo(Map.of("ApplicationErrorException: boom", row[3]));
            assertThat(step.successLatency().count()).isEqualTo(row[3]);
            assertThat(step.rejectionLatency().count()).isEqualTo(row[3]);
            assertThat(step.failureLatency().count()).as("rejected + timed out + failed").isEqualTo(3 * row[3]);
            // A timeout is never declared before its time: the slowest failure waited the whole timeout.
            assertThat(step.failureLatency().maxMicros()).isGreaterThanOrEqualTo(100_000);
            assertThat(step.successRatio()).isEqualTo(0.25);
        }
        assertThat(target.received).as("requests the target saw").hasValue(60);
        assertThat(target.cancelled).as("every timed-out request was cancelled").hasValue(15);
        assertThat(s.sent()).isEqualTo(60);
        assertThat(s.successes() + s.rejected() + s.timedOut() + s.failed()).isEqualTo(60);
        assertThat(s.rejectionLatency().count()).isEqualTo(15);
        assertThat(s.failureLatency().count()).isEqualTo(45);
        assertThat(s.stoppedEarly()).isFalse();
        assertThat(s.atRate(80)).isSameAs(s.steps().get(1));
        assertThat(s.atRate(60)).isNull();
    }

    @Test
    void stoppingEndsTheRampButEveryRequestSentStillGetsItsOutcome() {
        AtomicInteger received = new AtomicInteger();
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                received.incrementAndGet();
                return Mono.just(Payload.create("ok"));
            }
        };
        RampGenerator[] generator = new RampGenerator[1];
        generator[0] = RampGenerator.create(echo).ramp(new Ramp(100, 300, 100, Duration.ofSeconds(30)))
            .timeout(Duration.ofSeconds(1))
            .onStep(step -> { });
        // Stops from another thread once some requests went out, long before the first 30 s step ends.
        Thread stopper = new Thread(() -> {
            for (int i = 0; i < 2000 && received.get() < 20; i++) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
            generator[0].stop();
        });
        stopper.start();

        RampSummary s = generator[0].run();

        assertThat(s.stoppedEarly()).isTrue();
        assertThat(s.steps()).as("only the step that sent").hasSize(1);
        StepStats only = s.steps().get(0);
        assertThat(only.sent()).isGreaterThanOrEqualTo(20).isLessThan(3000).isEqualTo(received.get());
        assertThat(only.successes()).isEqualTo(only.sent());
        assertThat(only.duration()).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void wrongSettingsAreRefused() {
        RampGenerator g = RampGenerator.create(new RSocket() { });
        assertThatThrownBy(() -> g.timeout(Duration.ZERO)).hasMessage("timeout must be > 0 and < 2^31 s, got PT0S");
        assertThatThrownBy(() -> g.payloadSize(-1)).hasMessageStartingWith("payload size must be between 0 and");
        assertThatThrownBy(() -> RampGenerator.create(null)).hasMessage("target must not be null");
    }
}
