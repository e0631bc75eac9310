package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

@Timeout(60)
class LoadGeneratorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

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

    private final AtomicInteger received = new AtomicInteger();
    private CloseableServer server;
    private Connection connection;

    @AfterEach
    void close() {
        if (connection != null) {
            connection.dispose();
        }
        if (server != null) {
            server.dispose();
        }
    }

    /**
     * The open-loop property: every response takes 2 s, yet the generator sends 1000 requests in each second — two
     * full seconds of requests go out before the first answer comes back — and every request gets its answer.
     */
    @Test
    void holdsTheRateWhileResponsesTakeSeconds() {
        connect(n -> Mono.delay(Duration.ofSeconds(2)).map(t -> Payload.create("slow")));
        List<SecondStats> reported = new CopyOnWriteArrayList<>();

        LoadSummary s = LoadGenerator.create(connection).ramp(Ramp.constant(1000, Duration.ofSeconds(3)))
            .drainTimeout(Duration.ofSeconds(10)).onSecond(reported::add).run();

        assertThat(s.sent()).isEqualTo(3000);
        assertThat(received).as("requests the server received").hasValue(3000);
        SecondStats first = s.seconds().get(0);
        SecondStats second = s.seconds().get(1);
        assertThat(first.responses() + second.responses()).as("answers in the first two seconds").isZero();
        assertThat(first.sent() + second.sent())
            .as("sent in the first two seconds, 1000/s ± 2%%, while no answer came; seconds %s, max send lag %d µs",
                s.seconds(), s.maxSendLagMicros())
            .isBetween(1960L, 2040L);
        assertThat(s.achievedRate()).as("sent / time to the last send").isBetween(980.0, 1000.0);
        assertThat(s.successes()).isEqualTo(3000);
        assertThat(s.responsesByServer()).isEqualTo(Map.of("slow", 3000L));
        assertThat(s.successLatency().p50Micros()).as("latency counts the 2 s wait").isGreaterThanOrEqualTo(2_000_000);
        assertThat(s.steps()).as("a constant load is one step").hasSize(1);
        assertAddsUp(s);
        assertThat(reported).as("the listener saw every second").isEqualTo(s.seconds());
    }

    /** Responses per server, rejections, errors and unanswered requests: each request counted once. */
    @Test
    void everyRequestHasExactlyOneOutcome() {
        connect(n -> switch (n % 5) {
            case 0 -> Mono.just(Payload.create("127.0.0.1:7001"));
            case 1 -> Mono.just(Payload.create("127.0.0.1:7002"));
            case 2 -> Mono.error(new RejectedException("lease_exhausted"));
            case 3 -> Mono.error(new ApplicationErrorException("boom"));
            default -> Mono.never();
        });

        LoadSummary s = LoadGenerator.create(connection).ramp(Ramp.constant(200, Duration.ofSeconds(1)))
            .payloadSize(100).drainTimeout(Duration.ofMillis(300)).run();

        assertThat(s.sent()).isEqualTo(200);
        assertThat(s.responsesByServer()).isEqualTo(Map.of("127.0.0.1:7001", 40L, "127.0.0.1:7002", 40L));
        assertThat(s.successes()).isEqualTo(80);
        assertThat(s.rejected()).isEqualTo(40);
        assertThat(s.timedOut()).as("no request timeout: the drain timeout gives up").isZero();
        assertThat(s.failed()).isEqualTo(80);
        assertThat(s.failuresByCause()).isEqualTo(Map.of(
            "ApplicationErrorException: boom", 40L,
            "no answer within the drain timeout (300 ms)", 40L));
        assertThat(s.rejectionLatency().count()).isEqualTo(40);
        assertThat(s.payloadSize()).isEqualTo(100);
        assertAddsUp(s);
    }

    /** The server goes away mid-run: what was in flight and what is sent afterwards fail, and are counted. */
    @Test
    void aServerThatDiesMidRunLeavesNoRequestUncounted() {
        connect(n -> {
            if (n == 150) {
                server.dispose();
            }
            return Mono.delay(Duration.ofMillis(50)).map(t -> Payload.create("s"));
        });

        LoadSummary s = LoadGenerator.create(connection).ramp(Ramp.constant(500, Duration.ofSeconds(1)))
            .drainTimeout(Duration.ofSeconds(2)).run();

        assertThat(s.sent()).isEqualTo(500);
        assertThat(s.successes()).isPositive().isLessThan(151);
        assertThat(s.failed()).isGreaterThanOrEqualTo(350);
        assertAddsUp(s);
    }

    @Test
    void stopEndsSendingAndTheRunStillAddsUp() {
        connect(n -> Mono.just(Payload.create("s")));
        AtomicReference<LoadGenerator> generator = new AtomicReference<>();
        generator.set(LoadGenerator.create(connection).ramp(Ramp.constant(100, Duration.ofSeconds(30)))
            .onSecond(second -> generator.get().stop()));

        LoadSummary s = generator.get().run();

        assertThat(s.sent()).as("about one second's worth of 30").isBetween(90L, 200L);
        assertThat(s.successes()).isEqualTo(s.sent());
        assertThat(s.stoppedEarly()).isTrue();
        assertThat(s.duration()).as("the time it sent, not the 30 s planned").isLessThan(Duration.ofSeconds(30));
        assertThat(s.perSecond(s.sent())).as("rates over that time").isCloseTo(s.achievedRate(), within(1e-6));
        assertAddsUp(s);
    }

    @Test
    void aListenerFailureStopsTheRunAndIsRethrown() {
        connect(n -> Mono.just(Payload.create("s")));
        LoadGenerator g = LoadGenerator.create(connection).ramp(Ramp.constant(100, Duration.ofSeconds(30)))
            .onSecond(second -> {
                throw new IllegalStateException("listener broke");
            });
        assertThatThrownBy(g::run).hasMessage("listener broke");
        assertThatThrownBy(g::run).hasMessage("a LoadGenerator runs once; create another");
    }

    /**
     * Steps of 20 and 40 requests (40/s then 80/s for 0.5 s), each a multiple of 4: every step holds each outcome a
     * quarter of the time, and its counts add up to what it sent.
     */
    @Test
    void aRampCountsEachRequestOnceInTheStepItWasDueIn() {
        FourOutcomes target = new FourOutcomes();
        List<StepStats> reported = new CopyOnWriteArrayList<>();

        // A timeout far above the answers' time: a loaded machine (a CI runner, a parallel build) may take tens of
        // milliseconds to deliver an immediate answer, which a short timeout would count as timed out.
        LoadSummary s = LoadGenerator.create(target).ramp(new Ramp(40, 80, 40, Duration.ofMillis(500)))
            .timeout(Duration.ofSeconds(1)).onStep(reported::add).run();

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
            assertThat(step.failureLatency().maxMicros()).isGreaterThanOrEqualTo(1_000_000);
            assertThat(step.successRatio()).isEqualTo(0.25);
        }
        assertThat(target.received).as("requests the target saw").hasValue(60);
        assertThat(target.cancelled).as("every timed-out request was cancelled").hasValue(15);
        assertThat(s.sent()).isEqualTo(60);
        assertThat(s.successes() + s.rejected() + s.timedOut() + s.failed()).isEqualTo(60);
        assertThat(s.timedOut()).isEqualTo(15);
        assertThat(s.rejectionLatency().count()).isEqualTo(15);
        assertThat(s.failureLatency().count()).isEqualTo(45);
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.stoppedEarly()).isFalse();
        assertThat(s.atRate(80)).isSameAs(s.steps().get(1));
        assertThat(s.atRate(60)).isNull();
        assertAddsUp(s);
    }

    /** A drain timeout shorter than the request timeout cuts the wait: what is left fails, it does not time out. */
    @Test
    void theDrainTimeoutEndsTheWaitEvenBeforeTheRequestTimeout() {
        FourOutcomes target = new FourOutcomes();

        LoadSummary s = LoadGenerator.create(target).ramp(Ramp.constant(40, Duration.ofMillis(500)))
            .timeout(Duration.ofSeconds(30)).drainTimeout(Duration.ofMillis(100)).run();

        assertThat(s.sent()).isEqualTo(20);
        assertThat(s.timedOut()).isZero();
        assertThat(s.failuresByCause()).isEqualTo(Map.of("ApplicationErrorException: boom", 5L,
            "no answer within the drain timeout (100 ms)", 5L));
        assertThat(target.cancelled).as("every request given up was cancelled").hasValue(5);
        assertAddsUp(s);
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
        LoadGenerator generator = LoadGenerator.create(echo).ramp(new Ramp(100, 300, 100, Duration.ofSeconds(30)))
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
            generator.stop();
        });
        stopper.start();

        LoadSummary s = generator.run();

        assertThat(s.stoppedEarly()).isTrue();
        assertThat(s.steps()).as("only the step that sent").hasSize(1);
        StepStats only = s.steps().get(0);
        assertThat(only.sent()).isGreaterThanOrEqualTo(20).isLessThan(3000).isEqualTo(received.get());
        assertThat(only.successes()).isEqualTo(only.sent());
        assertThat(only.duration()).isLessThan(Duration.ofSeconds(30));
        assertAddsUp(s);
    }

    @Test
    void rejectsWrongSettingsWithTheValue() {
        RSocket target = new RSocket() { };
        // A constant load is a one-step ramp: its rate and duration are checked as the ramp's.
        assertThatThrownBy(() -> LoadGenerator.create(target).ramp(Ramp.constant(0, Duration.ofSeconds(1))))
            .hasMessage("expected 1 <= from <= to <= 10000000, got from=0 to=0");
        assertThatThrownBy(() -> LoadGenerator.create(target).ramp(Ramp.constant(1, Duration.ZERO)))
            .hasMessage("step duration must be > 0 and < 2^31 s, got PT0S");
        assertThatThrownBy(() -> LoadGenerator.create(target).ramp(null)).hasMessage("ramp must not be null");
        assertThatThrownBy(() -> LoadGenerator.create(target).payloadSize(-1))
            .hasMessage("payload size must be between 0 and 16777152 bytes, got -1");
        assertThatThrownBy(() -> LoadGenerator.create(target).drainTimeout(Duration.ofSeconds(-1)))
            .hasMessage("drain timeout must be >= 0 and < 2^31 s, got PT-1S");
        assertThatThrownBy(() -> LoadGenerator.create(target).timeout(Duration.ZERO))
            .hasMessage("timeout must be > 0 and < 2^31 s, got PT0S");
        assertThatThrownBy(() -> LoadGenerator.create(null)).hasMessage("target must not be null");
    }

    /**
     * sent = successes + rejected + timed out + failed, in total and in each step; summed over the seconds too (where
     * a timeout is a failure); and the seconds chain.
     */
    static void assertAddsUp(LoadSummary s) {
        assertThat(s.successes() + s.rejected() + s.timedOut() + s.failed())
            .as("sent = successes + rejected + timed out + failed").isEqualTo(s.sent());
        for (StepStats step : s.steps()) {
            assertThat(step.successes() + step.rejected() + step.timedOut() + step.failed())
                .as("step %d adds up", step.step()).isEqualTo(step.sent());
        }
        assertThat(s.seconds().stream().mapToLong(SecondStats::sent).sum()).isEqualTo(s.sent());
        assertThat(s.seconds().stream().mapToLong(SecondStats::responses).sum()).isEqualTo(s.successes());
        assertThat(s.seconds().stream().mapToLong(SecondStats::rejected).sum()).isEqualTo(s.rejected());
        assertThat(s.seconds().stream().mapToLong(SecondStats::failed).sum()).isEqualTo(s.timedOut() + s.failed());
        assertThat(s.responsesByServer().values().stream().mapToLong(Long::longValue).sum())
            .isEqualTo(s.successes());
        long inFlight = 0;
        for (SecondStats second : s.seconds()) {
            inFlight += second.sent() - second.completed();
            assertThat(second.inFlight()).as("in flight after second %d", second.second()).isEqualTo(inFlight);
        }
        assertThat(inFlight).as("nothing left in flight").isZero();
    }

    /** A server on a free loopback port answering the n-th request (from 0) with {@code answer}, and a client. */
    private void connect(IntFunction<Mono<Payload>> answer) {
        server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                return answer.apply(received.getAndIncrement());
            }
        })).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        connection = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }
}
