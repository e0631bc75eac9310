package dev.sluice.loadbalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.InvalidSetupException;
import dev.sluice.core.transport.ClientTransport;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * Reconnects on virtual time: with full jitter each delay lies between the minimum backoff and twice the
 * exponential step, so the checks below hold whatever the random draws.
 */
class TargetSocketTest {

    private static final ClientTransport UNUSED = () -> Mono.error(new IllegalStateException("not used"));
    private static final Duration MIN = Duration.ofMillis(100);
    private static final Duration MAX = Duration.ofMillis(1000);

    @Test
    void retriesWithJitteredBackoffUntilTheTargetAnswersAndAfterItIsLost() {
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        List<Long> attemptMillis = new ArrayList<>();
        List<FakeConnection> made = new ArrayList<>();
        TargetSocket socket = new TargetSocket(new Target("a", UNUSED), t -> {
            attemptMillis.add(time.now(TimeUnit.MILLISECONDS));
            if (attemptMillis.size() <= 3) {
                return Mono.error(new ConnectException("cannot connect to a:1: connection refused"));
            }
            FakeConnection c = new FakeConnection("a");
            made.add(c);
            return Mono.<Connection>just(c);
        }, () -> { }, MIN, MAX, null, time);
        try {
            socket.start();
            assertThat(socket.lastError()).isEqualTo("cannot connect to a:1: connection refused");
            advanceUntil(time, () -> socket.connection() != null);
            assertThat(attemptMillis).hasSize(4);
            // Retry i waits between the minimum and twice its step (100 ms * 2^i), capped at the maximum.
            for (int i = 0; i < 3; i++) {
                long gap = attemptMillis.get(i + 1) - attemptMillis.get(i);
                long step = MIN.toMillis() << i;
                assertThat(gap).as("retry %d", i).isBetween(MIN.toMillis(), Math.min(2 * step, MAX.toMillis()));
            }

            made.get(0).dispose();
            assertThat(socket.connection()).as("lost").isNull();
            long lostAt = time.now(TimeUnit.MILLISECONDS);
            advanceUntil(time, () -> socket.connection() != null);
            assertThat(socket.connection()).isSameAs(made.get(1));
            // After a loss the first attempt waits a backoff step too: no tight loop against a closing server.
            assertThat(attemptMillis.get(4) - lostAt).isBetween(MIN.toMillis(), 2 * MIN.toMillis());
        } finally {
            socket.remove(Duration.ZERO);
            time.dispose();
        }
    }

    @Test
    void aServerThatRefusesOurSetupIsRetriedWithGrowingBackoffNotInALoop() {
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        List<Long> attemptMillis = new ArrayList<>();
        List<FakeConnection> made = new ArrayList<>();
        TargetSocket socket = new TargetSocket(new Target("a", UNUSED), t -> {
            attemptMillis.add(time.now(TimeUnit.MILLISECONDS));
            FakeConnection c = new FakeConnection("a");
            made.add(c);
            return Mono.<Connection>just(c);
        }, () -> { }, MIN, MAX, null, time);
        try {
            socket.start();
            for (int refusal = 0; refusal < 6; refusal++) {
                made.get(made.size() - 1).closeWith(new InvalidSetupException("lease is not supported"));
                assertThat(socket.connection()).isNull();
                assertThat(socket.lastError()).isEqualTo("connection lost: lease is not supported");
                advanceUntil(time, () -> socket.connection() != null);
            }
            // The wait before reconnecting grows as retries of an unreachable target do: min, then doubling.
            for (int i = 0; i < 6; i++) {
                long gap = attemptMillis.get(i + 1) - attemptMillis.get(i);
                long step = Math.min(MIN.toMillis() << i, MAX.toMillis());
                assertThat(gap).as("wait after refusal %d", i + 1)
                    .isBetween(MIN.toMillis(), Math.min(2 * step, MAX.toMillis()));
            }

            // A connection that is not refused and lasts ends the outage: the next loss starts from the minimum.
            time.advanceTimeBy(Duration.ofSeconds(2));
            FakeConnection lasting = made.get(made.size() - 1);
            assertThat(socket.connection()).isSameAs(lasting);
            lasting.dispose();
            long lostAt = time.now(TimeUnit.MILLISECONDS);
            advanceUntil(time, () -> socket.connection() != null);
            assertThat(attemptMillis.get(attemptMillis.size() - 1) - lostAt).isBetween(MIN.toMillis(),
                2 * MIN.toMillis());
        } finally {
            socket.remove(Duration.ZERO);
            time.dispose();
        }
    }

    /** Moves virtual time a millisecond at a time until {@code done}, for at most a minute of it. */
    private static void advanceUntil(VirtualTimeScheduler time, BooleanSupplier done) {
        for (int ms = 0; ms < 60_000 && !done.getAsBoolean(); ms++) {
            time.advanceTimeBy(Duration.ofMillis(1));
        }
        assertThat(done.getAsBoolean()).as("done within a virtual minute").isTrue();
    }

    @Test
    void aRemovedTargetIsNotRetried() {
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        AtomicInteger attempts = new AtomicInteger();
        TargetSocket socket = new TargetSocket(new Target("a", UNUSED), t -> {
            attempts.incrementAndGet();
            return Mono.error(new ConnectException("refused"));
        }, () -> { }, MIN, MAX, null, time);
        socket.start();
        socket.remove(Duration.ZERO);
        time.advanceTimeBy(Duration.ofMinutes(1));
        assertThat(attempts).hasValue(1);
        time.dispose();
    }
}
