package dev.sluice.cli.load.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.SecondStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class TallyTest {

    private static final long MS = 1_000_000L;
    private static final long START = 1_000 * MS;

    private final AtomicLong clock = new AtomicLong(START);
    private final Tally tally = new Tally(clock::get, START);

    @Test
    void eachEventLandsInTheSecondItHappenedIn() {
        at(10 * MS);
        Req a = sent(10 * MS);
        Req b = sent(10 * MS);
        Req c = sent(10 * MS);
        at(700 * MS);
        tally.respond(a, "s1");                  // 690 ms after its intended time, in second 0
        at(1_200 * MS);
        tally.reject(b);                         // second 1
        Req d = sent(1_200 * MS);
        at(2_500 * MS);
        tally.fail(c);                           // second 2
        tally.respond(d, "s2");

        SecondStats s0 = tally.closeNext();
        SecondStats s1 = tally.closeNext();
        SecondStats s2 = tally.closeNext();

        assertThat(s0).extracting(SecondStats::second, SecondStats::sent, SecondStats::responses,
            SecondStats::rejected, SecondStats::failed, SecondStats::inFlight).containsExactly(0, 3L, 1L, 0L, 0L, 2L);
        assertThat(s0.responsesByServer()).isEqualTo(Map.of("s1", 1L));
        assertThat(s0.responseLatency().count()).isEqualTo(1);
        assertThat(s0.responseLatency().p99Micros()).isBetween(689_900L, 690_500L);
        assertThat(s0.rejectionLatency()).isEqualTo(Latency.NONE);

        assertThat(s1).extracting(SecondStats::sent, SecondStats::responses, SecondStats::rejected,
            SecondStats::failed, SecondStats::inFlight).containsExactly(1L, 0L, 1L, 0L, 2L);
        assertThat(s1.rejectionLatency().p50Micros()).isBetween(1_189_000L, 1_191_000L);

        assertThat(s2).extracting(SecondStats::sent, SecondStats::responses, SecondStats::rejected,
            SecondStats::failed, SecondStats::inFlight).containsExactly(0L, 1L, 0L, 1L, 0L);
        assertThat(s2.responsesByServer()).isEqualTo(Map.of("s2", 1L));

        List<SecondStats> run = List.of(s0, s1, s2);
        assertThat(run.stream().mapToLong(SecondStats::sent).sum()).isEqualTo(4);
        assertThat(run.stream().mapToLong(SecondStats::responses).sum()).isEqualTo(2);
        assertThat(run.stream().mapToLong(SecondStats::rejected).sum()).isEqualTo(1);
        assertThat(run.stream().mapToLong(SecondStats::failed).sum()).isEqualTo(1);
        assertThat(tally.responsesByServer()).as("over the closed seconds").isEqualTo(Map.of("s1", 1L, "s2", 1L));
        assertThat(s2.responseLatency().count()).isEqualTo(1);
        assertThat(s2.responseLatency().maxMicros()).isBetween(1_299_000L, 1_301_000L); // d: 2.5 s - 1.2 s
    }

    @Test
    void anOutcomeIsCountedOnceWhicheverComesFirst() {
        Req r = sent(0);
        assertThat(tally.fail(r)).as("given up: the drain timeout ran out").isTrue();
        assertThat(tally.respond(r, "late")).as("a late answer after expiry").isFalse();
        assertThat(tally.reject(r)).isFalse();
        assertThat(tally.fail(r)).isFalse();

        SecondStats s = tally.closeNext();
        assertThat(s.sent()).isEqualTo(1);
        assertThat(s.completed()).isEqualTo(1);
        assertThat(s.failed()).isEqualTo(1);
        assertThat(s.responsesByServer()).isEmpty();
    }

    @Test
    void eventsAfterTheirSecondWasClosedCountInTheNextOpenOne() {
        Req r = sent(0);
        SecondStats early = tally.closeNext();          // closed while the clock is still in second 0
        tally.respond(r, "s");                            // still second 0 on the clock
        SecondStats next = tally.closeNext();
        assertThat(early.sent()).isEqualTo(1);
        assertThat(early.responses()).isZero();
        assertThat(next.second()).isEqualTo(1);
        assertThat(next.responses()).as("not lost: counted in the first open second").isEqualTo(1);
        assertThat(next.inFlight()).isZero();
    }

    @Test
    void closeRemainingClosesThroughTheLastSecondWithEventsIncludingEmptyOnesBetween() {
        Req r = sent(0);
        at(3_100 * MS);
        tally.respond(r, "s");
        at(5_500 * MS);
        List<SecondStats> rest = tally.closeRemaining();
        assertThat(rest).extracting(SecondStats::second).as("not the empty seconds 4 and 5 after the last event")
            .containsExactly(0, 1, 2, 3);
        assertThat(rest).extracting(SecondStats::responses).containsExactly(0L, 0L, 0L, 1L);
        assertThat(rest).extracting(SecondStats::inFlight).containsExactly(1L, 1L, 1L, 0L);
        assertThat(tally.closeRemaining()).as("nothing left").isEmpty();
    }

    @Test
    void serversBeyondTheBoundAreCountedTogether() {
        for (int i = 0; i < Tally.MAX_SERVERS + 5; i++) {
            tally.respond(sent(0), "server-" + i);
        }
        SecondStats s = tally.closeNext();
        assertThat(s.responsesByServer()).hasSize(Tally.MAX_SERVERS + 1).containsEntry(Tally.OTHER, 5L);
        assertThat(s.responsesByServer().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(s.responses());
    }

    /**
     * Writers on four threads count while the closer moves the clock and closes seconds as fast as it can: not one
     * event may fall between two seconds.
     */
    @Test
    void noEventIsLostWhileSecondsCloseUnderConcurrentWriters() throws Exception {
        int writers = 4;
        int perWriter = 50_000;
        AtomicBoolean go = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(writers);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int id = w;
            Thread t = new Thread(() -> {
                while (!go.get()) {
                    Thread.onSpinWait();
                }
                for (int i = 0; i < perWriter; i++) {
                    Req r = new Req(clock.get());
                    tally.sent();
                    if (i % 3 == 0) {
                        tally.respond(r, "s" + id);
                    } else if (i % 3 == 1) {
                        tally.reject(r);
                    } else {
                        tally.fail(r);
                    }
                }
                done.countDown();
            });
            t.start();
            threads.add(t);
        }
        go.set(true);
        List<SecondStats> seconds = new ArrayList<>();
        // Bounded: the writers finish; each turn closes one second, pausing a little so seconds hold events.
        for (int turn = 0; turn < 1_000_000 && done.getCount() > 0; turn++) {
            clock.addAndGet(1_000 * MS);
            seconds.add(tally.closeNext());
            LockSupport.parkNanos(20_000);
        }
        for (Thread t : threads) {
            t.join();
        }
        seconds.addAll(tally.closeRemaining());

        long total = (long) writers * perWriter;
        assertThat(seconds.size()).as("seconds closed while writing").isGreaterThan(2);
        assertThat(seconds.stream().mapToLong(SecondStats::sent).sum()).isEqualTo(total);
        assertThat(seconds.stream().mapToLong(SecondStats::completed).sum()).isEqualTo(total);
        assertThat(seconds.stream().mapToLong(s -> s.responseLatency().count()).sum())
            .isEqualTo(seconds.stream().mapToLong(SecondStats::responses).sum());
        assertThat(seconds.get(seconds.size() - 1).inFlight()).isZero();
        assertThat(tally.responsesByServer().values().stream().mapToLong(Long::longValue).sum())
            .isEqualTo(seconds.stream().mapToLong(SecondStats::responses).sum());
    }

    private void at(long sinceStart) {
        clock.set(START + sinceStart);
    }

    private Req sent(long intendedSinceStart) {
        tally.sent();
        return new Req(START + intendedSinceStart);
    }

    /** A request that counts its outcome once. */
    private static final class Req implements TrackedRequest {
        private final long intended;
        private final AtomicBoolean settled = new AtomicBoolean();

        Req(long intended) {
            this.intended = intended;
        }

        @Override
        public long intendedNanos() {
            return intended;
        }

        @Override
        public boolean settle() {
            return settled.compareAndSet(false, true);
        }
    }
}
